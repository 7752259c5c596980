import { Link } from 'react-router';
import { Callout } from '@/client/ui/prose.tsx';
import { formatMoney } from '@/shared/money.ts';
import { SALES_TERMS as T } from '@/shared/sales-terms.ts';
import { shop } from '@/shared/shop.ts';
import { Mail, POLICIES_UPDATED } from './shop-text.tsx';

/** The general conditions of sale of spec §9 (prices, minimums, delivery, freight, orders). */
function SaleConditions() {
  return (
    <>
      <h2 id="condiciones">Condiciones generales de venta</h2>
      <ul>
        <li>
          <strong>Vigencia de precios:</strong> los precios cotizados se respetan durante{' '}
          {T.priceValidityDays} días. Los precios de la tienda en línea están en pesos mexicanos e incluyen
          IVA; el precio que se cobra es el vigente al confirmar el pedido.
        </li>
        <li>
          <strong>Facturación mínima de contado:</strong> {formatMoney(T.minCashInvoiceCents)} más IVA.
        </li>
        <li>
          <strong>Facturación mínima a crédito:</strong> {formatMoney(T.minCreditInvoiceCents)} más IVA, para
          clientes con línea de crédito autorizada.
        </li>
        <li>
          <strong>Entrega local en la zona metropolitana de Guadalajara</strong> con nuestro propio vehículo:
          pedido mínimo de {formatMoney(T.localDeliveryMinCents)}. No aplica para distribuidores. Los pedidos
          de la tienda en línea se envían por paquetería con el costo que se muestra en su carrito.
        </li>
        <li>
          <strong>Fletes:</strong> el flete corre por cuenta del cliente; la mercancía viaja LAB (libre a
          bordo) Guadalajara. En la tienda en línea el costo de envío se calcula y se muestra antes de pagar
          (vea la <Link to="/politica_de_envios">política de envíos</Link>).
        </li>
        <li>
          <strong>Pedidos:</strong> no se aceptan pedidos por teléfono; hágalos en esta tienda o por escrito a{' '}
          <Mail />.
        </li>
        <li>
          <strong>Cancelaciones:</strong> no se aceptan cancelaciones de pedidos ya procesados (surtidos o
          enviados). Un pedido pagado que aún no tiene guía de envío puede cancelarse desde su historial de
          pedidos.
        </li>
      </ul>
    </>
  );
}

/** Returns and the limited warranty of spec §9, with the consumer's statutory right where it applies. */
function ReturnsAndWarranty() {
  return (
    <>
      <h2 id="devoluciones">Devoluciones</h2>
      <ul>
        <li>
          Solo se aceptan devoluciones de <strong>mercancía de línea (en existencia)</strong>, dentro de los{' '}
          <strong>{T.returnDays} días</strong> siguientes a la entrega, en su empaque original, sin uso y con
          su factura o número de pedido.
        </li>
        <li>
          <strong>No se aceptan devoluciones de reactivos químicos ni biológicos</strong>, por seguridad y
          para garantizar su conservación y trazabilidad, salvo que lleguen defectuosos o no sean lo que
          pidió; en ese caso no vuelven a la venta.
        </li>
        <li>
          Para iniciar una devolución pídala desde su pedido en <Link to="/historial">Mis pedidos</Link>, con
          los productos, el motivo y fotos si hay daño (o escriba a <Mail to={shop.complaintsEmail} />
          ); le indicaremos cómo enviarlos. Una vez revisada la mercancía, el reembolso se hace al mismo medio
          de pago.
        </li>
      </ul>

      <h2 id="garantia">Garantía limitada</h2>
      <ul>
        <li>
          Los equipos tienen <strong>garantía de {T.warrantyYears} año</strong> contra defectos de fabricación
          a partir de la fecha de entrega.
        </li>
        <li>
          Las fallas deben reportarse dentro de los <strong>{T.faultReportDays} días</strong> siguientes a la
          recepción de la mercancía.
        </li>
        <li>
          <strong>No tienen garantía</strong> las partes de desgaste o consumibles de los equipos, como
          lámparas, electrodos y resistencias, ni los daños por uso indebido, instalación eléctrica inadecuada
          o reparaciones por terceros.
        </li>
        <li>Los fletes para hacer válida la garantía corren por cuenta del cliente, LAB Guadalajara.</li>
      </ul>

      <h2 id="derechos">Sus derechos como consumidor</h2>
      <p>
        Si usted compra como consumidor final, tiene además los derechos que le otorga la Ley Federal de
        Protección al Consumidor (LFPC). En particular, cuando la compra se considere una venta fuera del
        establecimiento en términos de su <strong>artículo 56</strong>, puede revocar su consentimiento dentro
        de los <strong>5 días hábiles</strong> siguientes a la entrega del producto, sin responsabilidad
        alguna, avisándonos por correo electrónico a <Mail to={shop.complaintsEmail} />. En ese caso le
        reintegramos el precio pagado; los costos de flete y seguro corren a cargo del consumidor, como prevé
        la ley.
      </p>
      <p>
        Nada de lo dispuesto en esta política limita los derechos que la ley le otorga. Para cualquier queja
        puede acudir a la Procuraduría Federal del Consumidor (Profeco).
      </p>
    </>
  );
}

export function SalesPolicy() {
  return (
    <>
      <p className="text-sm text-slate-600">Última actualización: {POLICIES_UPDATED}</p>
      <p>
        Estas condiciones aplican a todas las ventas de {shop.legalName} («{shop.tradeName}»), en la tienda en
        línea y en nuestras sucursales.
      </p>
      <Callout title="En resumen">
        <ul className="mt-2! space-y-1!">
          <li>Precios firmes por {T.priceValidityDays} días, en MXN con IVA incluido.</li>
          <li>
            Devoluciones de mercancía de línea dentro de {T.returnDays} días; ningún reactivo químico ni
            biológico.
          </li>
          <li>
            Garantía de {T.warrantyYears} año en equipos; fallas reportadas dentro de {T.faultReportDays} días
            de recibidos.
          </li>
        </ul>
      </Callout>
      <SaleConditions />
      <ReturnsAndWarranty />
    </>
  );
}

export function ReturnsPolicy() {
  return (
    <>
      <p className="text-sm text-slate-600">Última actualización: {POLICIES_UPDATED}</p>
      <p>
        Queremos que reciba exactamente lo que necesita. Si no es así, esto es lo que puede hacer, de acuerdo
        con las condiciones generales de venta y garantía limitada de {shop.legalName.replace(/\.$/, '')}.
      </p>
      <Callout title="Cómo iniciar una devolución o un reclamo de garantía">
        <ol className="mt-2! space-y-1!">
          <li>
            Dentro de los {T.returnDays} días siguientes a la entrega, pídala desde su pedido en{' '}
            <Link to="/historial">Mis pedidos</Link> («Solicitar devolución»), o escriba a{' '}
            <Mail to={shop.complaintsEmail} /> con su número de pedido.
          </li>
          <li>Describa el producto y el motivo (con fotos si hay daño o falla).</li>
          <li>Le responderemos en un máximo de dos días hábiles con las instrucciones de envío.</li>
        </ol>
      </Callout>
      <ReturnsAndWarranty />
      <SaleConditions />
    </>
  );
}

import { Link } from 'react-router';
import { Callout } from '@/client/ui/prose.tsx';
import { formatMoney } from '@/shared/money.ts';
import { shop } from '@/shared/shop.ts';
import { Mail, POLICIES_UPDATED, shipping } from './shop-text.tsx';

/** A worked example a little over the base weight, whatever the configured rule. */
const EXAMPLE_KG = shipping.baseKg + 2.3;

export function ShippingPolicy() {
  const extraKg = Math.ceil(EXAMPLE_KG - shipping.baseKg);
  return (
    <>
      <p className="text-sm text-slate-600">Última actualización: {POLICIES_UPDATED}</p>
      <p>Enviamos a todo México desde nuestro almacén en la zona metropolitana de Guadalajara, Jalisco.</p>

      <h2>Costo de envío</h2>
      <p>El costo depende del peso total de su pedido y ya incluye IVA:</p>
      <ul>
        <li>
          <strong>{shipping.base}</strong> por pedido de hasta {shipping.baseKg} kg.
        </li>
        <li>
          <strong>{shipping.extra}</strong> por cada kilogramo adicional o fracción.
        </li>
      </ul>
      <Callout title="Ejemplo">
        <p className="mt-1!">
          Un pedido que pesa {EXAMPLE_KG.toFixed(1)} kg rebasa los {shipping.baseKg} kg por{' '}
          {(EXAMPLE_KG - shipping.baseKg).toFixed(1)} kg, que cuentan como {extraKg} kg adicionales: el envío
          cuesta {shipping.base} + {extraKg} × {shipping.extra} ={' '}
          <strong>{shipping.priceFor(EXAMPLE_KG)}</strong>.
        </p>
      </Callout>
      <p>
        El costo exacto se calcula con el peso registrado de cada producto y lo verá en su carrito, en el
        renglón «Envío», antes de pagar.
      </p>

      <h2>Tiempos de entrega</h2>
      <ul>
        <li>Preparamos su pedido en 1 a 2 días hábiles después de confirmado el pago.</li>
        <li>
          La paquetería entrega en 2 a 5 días hábiles en la mayor parte del país; en zonas extendidas o de
          difícil acceso puede tardar algunos días más.
        </li>
      </ul>

      <h2>Seguimiento de su pedido</h2>
      <p>
        Cada envío que sale del almacén le llega por correo con su <strong>guía de rastreo</strong> y el
        enlace de la paquetería, y aparece en <Link to="/historial">su historial de pedidos</Link> con el
        estado del pedido («En preparación», «Enviado parcialmente», «Enviado», «Entregado»). Si una parte del
        pedido es «sobre pedido», sale en un envío posterior, en la fecha prometida que ve en su recibo.
      </p>

      <h2>Recoger en sucursal</h2>
      <p>
        Al pagar puede elegir «Recoger en sucursal», sin costo de envío. Cuando su pedido está listo le
        enviamos el correo «Listo para recoger» con un código; entréguelo en la sucursal con una
        identificación oficial de quien recoge. Direcciones y horarios en{' '}
        <Link to="/sucursales">Sucursales</Link>.
      </p>

      <h2>Reactivos peligrosos</h2>
      <p>
        Los reactivos inflamables, comburentes, tóxicos o corrosivos (por sus frases H de la hoja de datos de
        seguridad) no viajan por avión: se envían por paquetería terrestre con un cargo de manejo de{' '}
        <strong>{formatMoney(shop.shipping.hazardousSurchargeCents)}</strong>, o puede recogerlos en sucursal.
        Los explosivos, pirofóricos y los que reaccionan con el agua solo se entregan en sucursal. El carrito
        y el pago le dicen qué forma de entrega no está disponible y por qué.
      </p>

      <h2>Al recibir</h2>
      <ul>
        <li>Revise que el empaque llegue cerrado y sin golpes antes de firmar de recibido.</li>
        <li>
          Si algo llegó dañado o incompleto, solicite la devolución desde{' '}
          <Link to="/historial">su historial</Link> (o escríbanos a <Mail to={shop.complaintsEmail} />) dentro
          de los {shop.returns.windowDays} días siguientes a la entrega, con fotos del empaque.
        </li>
        <li>
          Algunos reactivos se envían como mercancía regulada, con el embalaje y la documentación que exige la
          paquetería.
        </li>
      </ul>
      <p>
        El flete corre por cuenta del cliente, LAB Guadalajara, como indican las{' '}
        <Link to="/politica_de_venta">condiciones generales de venta</Link>.
      </p>
    </>
  );
}

export function Invoicing() {
  return (
    <>
      <p>
        Emitimos <strong>CFDI 4.0</strong> por cada pedido pagado. Usted mismo lo solicita en línea y lo
        descarga en XML y PDF.
      </p>
      <Callout title="Plazo">
        <p className="mt-1!">
          Puede solicitar su factura dentro de los <strong>{shop.invoicingWindowDays} días naturales</strong>{' '}
          siguientes a la fecha de pago de su pedido.
        </p>
      </Callout>

      <h2>Cómo solicitarla</h2>
      <ol>
        <li>
          <Link to="/ingresar">Ingrese</Link> a su cuenta y abra{' '}
          <Link to="/historial">su historial de pedidos</Link>.
        </li>
        <li>En el pedido pagado, pulse «Solicitar factura».</li>
        <li>Capture sus datos fiscales y confirme.</li>
        <li>Descargue el XML y el PDF de su factura desde el mismo historial.</li>
      </ol>

      <h2>Datos que necesita</h2>
      <p>Tal como aparecen en su Constancia de Situación Fiscal del SAT:</p>
      <ul>
        <li>
          <strong>RFC</strong> (12 caracteres para personas morales, 13 para personas físicas).
        </li>
        <li>
          <strong>Nombre o razón social</strong>, sin el régimen societario (por ejemplo, sin «S.A. de C.V.»).
        </li>
        <li>
          <strong>Régimen fiscal</strong> (por ejemplo, 601 General de Ley Personas Morales o 612 Personas
          Físicas con Actividades Empresariales y Profesionales).
        </li>
        <li>
          <strong>Uso del CFDI</strong> (por ejemplo, G03 Gastos en general o I08 Otra maquinaria y equipo).
        </li>
        <li>
          <strong>Código postal</strong> de su domicilio fiscal.
        </li>
      </ul>
      <p>
        Si los datos no coinciden con los registrados en el SAT, el CFDI no puede timbrarse; revíselos con su
        constancia.
      </p>

      <h2>Errores y cancelaciones</h2>
      <p>
        Su factura (PDF y XML) está en el historial, en «Ver factura». Si tiene un error, puede corregirla o
        cancelarla desde el historial con «Corregir o cancelar factura» y solicitarla de nuevo con los datos
        correctos, dentro del mismo plazo. Una vez facturado, el pedido ya no puede cancelarse en línea.
      </p>
      <p>
        ¿Necesita ayuda con su factura? Escríbanos a <Mail /> con su número de pedido.
      </p>
    </>
  );
}

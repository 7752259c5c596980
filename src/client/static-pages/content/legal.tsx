import { Link } from 'react-router';
import { shop } from '@/shared/shop.ts';
import { fullAddress, Mail, POLICIES_UPDATED } from './shop-text.tsx';

export function Terms() {
  return (
    <>
      <p className="text-sm text-slate-600">Última actualización: {POLICIES_UPDATED}</p>
      <p>
        Estos términos regulan el uso de esta tienda en línea y las compras que se hacen en ella. El proveedor
        es <strong>{shop.legalName}</strong> («{shop.tradeName}»), con domicilio en {fullAddress()}; correo{' '}
        <Mail />. Al usar el sitio o hacer un pedido, usted acepta estos términos.
      </p>

      <h2>1. Uso del sitio</h2>
      <ul>
        <li>
          El catálogo, los precios y las existencias se muestran de buena fe y se actualizan de forma
          continua. Las imágenes son ilustrativas; la descripción y la ficha técnica de cada producto
          prevalecen.
        </li>
        <li>
          Usted se compromete a usar el sitio de forma lícita, a no intentar acceder a cuentas de otras
          personas ni a afectar su funcionamiento.
        </li>
        <li>
          Los textos, imágenes y marcas del sitio pertenecen a {shop.tradeName} o a sus respectivos titulares
          y no pueden reproducirse sin autorización.
        </li>
      </ul>

      <h2>2. Cuenta de cliente</h2>
      <p>
        Para pagar necesita una cuenta identificada con su correo electrónico. Usted es responsable de
        mantener su contraseña en secreto y de la información que registra (domicilio de envío y datos
        fiscales). Puede actualizar sus datos en cualquier momento desde <Link to="/cuenta">Mi cuenta</Link>.
      </p>

      <h2>3. Precios y pago</h2>
      <ul>
        <li>
          Los precios están en pesos mexicanos e <strong>incluyen IVA</strong>. El costo de envío se calcula
          según el peso del pedido y se muestra antes de pagar.
        </li>
        <li>
          El pago se hace con tarjeta de crédito o débito a través de un procesador de pagos certificado. No
          almacenamos los datos de su tarjeta.
        </li>
        <li>
          Si por un error evidente un producto aparece con un precio equivocado, le avisaremos antes de
          enviarlo y podrá confirmar la compra al precio correcto o cancelarla con el reembolso total.
        </li>
      </ul>

      <h2>4. Pedidos, existencias y cancelaciones</h2>
      <p>
        Al confirmar el pago, el pedido queda registrado y las piezas se apartan de nuestro inventario.
        Recibirá la confirmación por correo y podrá seguir su pedido en{' '}
        <Link to="/historial">su historial</Link>. Un pedido pagado, no facturado y sin guía de envío puede
        cancelarse desde el historial con reembolso total a la misma tarjeta; una vez procesado para envío, no
        se aceptan cancelaciones.
      </p>

      <h2>5. Envíos, devoluciones y garantía</h2>
      <p>
        Los envíos se rigen por la <Link to="/politica_de_envios">política de envíos</Link>; las devoluciones
        y la garantía, por la <Link to="/politica_de_devoluciones">política de devoluciones</Link> y las{' '}
        <Link to="/politica_de_venta">condiciones generales de venta</Link>, sin perjuicio de los derechos que
        la Ley Federal de Protección al Consumidor le otorga.
      </p>

      <h2>6. Facturación</h2>
      <p>
        Puede solicitar su CFDI 4.0 en línea dentro de los {shop.invoicingWindowDays} días siguientes al pago.
        Vea <Link to="/facturacion">Facturación</Link>.
      </p>

      <h2>7. Datos personales y cookies</h2>
      <p>
        Tratamos sus datos conforme a nuestro <Link to="/politica_de_privacidad">aviso de privacidad</Link>.
        El uso de cookies y del almacenamiento del navegador se explica en la{' '}
        <Link to="/cookies_policy">política de cookies</Link>.
      </p>

      <h2>8. Productos de uso especializado</h2>
      <p>
        Algunos reactivos y equipos son para uso exclusivo de laboratorio y deben manejarse por personal
        capacitado, siguiendo su hoja de datos de seguridad. El cliente es responsable de contar con los
        permisos que la ley exija para adquirir o usar ciertas sustancias.
      </p>

      <h2>9. Cambios, quejas y jurisdicción</h2>
      <p>
        Podemos actualizar estos términos; la versión vigente es la publicada en esta página y se aplica a los
        pedidos hechos a partir de su publicación. Para quejas escriba a <Mail to={shop.complaintsEmail} /> o
        acuda a la Procuraduría Federal del Consumidor (Profeco). Para la interpretación de estos términos se
        aplican las leyes federales de los Estados Unidos Mexicanos; en lo no previsto, las partes se someten
        a los tribunales competentes de {shop.address.city}, {shop.address.state}, salvo el derecho del
        consumidor de acudir a los de su domicilio.
      </p>
    </>
  );
}

export function Cookies() {
  return (
    <>
      <p className="text-sm text-slate-600">Última actualización: {POLICIES_UPDATED}</p>
      <p>
        Esta tienda usa lo mínimo indispensable para funcionar.{' '}
        <strong>No usamos cookies de publicidad, de analítica ni de seguimiento</strong>, ni compartimos su
        navegación con redes sociales o terceros.
      </p>

      <h2>Lo que guardamos en su navegador</h2>
      <div className="mt-4 overflow-x-auto rounded-lg border border-slate-200">
        <table className="w-full min-w-[36rem] border-collapse bg-white text-left text-sm">
          <thead className="bg-slate-50 text-slate-900">
            <tr>
              <th scope="col" className="px-4 py-3 font-semibold">
                Nombre
              </th>
              <th scope="col" className="px-4 py-3 font-semibold">
                Tipo
              </th>
              <th scope="col" className="px-4 py-3 font-semibold">
                Para qué sirve
              </th>
              <th scope="col" className="px-4 py-3 font-semibold">
                Duración
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200">
            <tr>
              <td className="px-4 py-3 font-mono text-xs">__Host-sid</td>
              <td className="px-4 py-3">Cookie de sesión, propia, estrictamente necesaria</td>
              <td className="px-4 py-3">
                Mantener abierta su sesión cuando ingresa a su cuenta. Es <em>httpOnly</em> (el código de la
                página no puede leerla) y solo viaja a este sitio.
              </td>
              <td className="px-4 py-3">
                Hasta que cierra sesión; vence tras 7 días sin actividad o 30 días en total
              </td>
            </tr>
            <tr>
              <td className="px-4 py-3 font-mono text-xs">cartItems, cartSyncedUser</td>
              <td className="px-4 py-3">Almacenamiento local del navegador (no es una cookie)</td>
              <td className="px-4 py-3">
                Recordar los productos de su carrito entre visitas y si ya se guardó en su cuenta. No sale de
                su equipo salvo cuando inicia sesión, para guardar el carrito en su cuenta.
              </td>
              <td className="px-4 py-3">Hasta que vacía el carrito o cierra sesión</td>
            </tr>
          </tbody>
        </table>
      </div>

      <h2>Pagos</h2>
      <p>
        Al pagar con tarjeta, el procesador de pagos y, en su caso, su banco (verificación 3-D Secure) pueden
        usar sus propias tecnologías para prevenir fraudes. Se rigen por los avisos de privacidad de esas
        instituciones.
      </p>

      <h2>Cómo controlarlas</h2>
      <p>
        Como estas tecnologías son necesarias para iniciar sesión y conservar su carrito, no pedimos un
        consentimiento por separado. Puede borrarlas en cualquier momento desde la configuración de su
        navegador; si lo hace, se cerrará su sesión y se vaciará el carrito guardado en ese navegador.
      </p>
      <p>
        Si en el futuro usáramos otras cookies, actualizaremos esta página y le pediremos su consentimiento
        antes de activarlas. Más información sobre sus datos en el{' '}
        <Link to="/politica_de_privacidad">aviso de privacidad</Link>.
      </p>
    </>
  );
}

import { Link } from 'react-router';
import { Callout } from '@/client/ui/prose.tsx';
import { shop } from '@/shared/shop.ts';
import { fullAddress, Mail, POLICIES_UPDATED } from './shop-text.tsx';

/**
 * Aviso de privacidad integral in the form of the Ley Federal de Protección de Datos Personales en Posesión
 * de los Particulares published 2025-03-20: necessary and voluntary purposes kept apart, with the means to
 * refuse the voluntary ones, ARCO rights, transfers and changes.
 */
export function Privacy() {
  const privacy = <Mail to={shop.privacyEmail} />;
  return (
    <>
      <p className="text-sm text-slate-600">Última actualización: {POLICIES_UPDATED}</p>
      <p>
        En cumplimiento de la Ley Federal de Protección de Datos Personales en Posesión de los Particulares
        (publicada en el Diario Oficial de la Federación el 20 de marzo de 2025), le informamos cómo tratamos
        sus datos personales.
      </p>

      <h2>1. Responsable</h2>
      <p>
        <strong>{shop.legalName}</strong> («{shop.tradeName}»), con domicilio en {fullAddress()}, es
        responsable del tratamiento de sus datos personales. Para cualquier asunto de privacidad escríbanos a{' '}
        {privacy}.
      </p>

      <h2>2. Datos que tratamos</h2>
      <ul>
        <li>
          <strong>Identificación y contacto:</strong> nombre, correo electrónico y teléfono.
        </li>
        <li>
          <strong>Domicilio de envío:</strong> calle, número, colonia, código postal, municipio, estado y
          referencias.
        </li>
        <li>
          <strong>Datos fiscales</strong> (solo si pide factura): RFC, nombre o razón social, régimen fiscal,
          uso del CFDI y código postal del domicilio fiscal.
        </li>
        <li>
          <strong>Datos de sus compras:</strong> productos, importes, estado de sus pedidos y facturas.
        </li>
        <li>
          <strong>Datos de pago:</strong> los datos de su tarjeta los recibe directamente el procesador de
          pagos; nosotros solo conservamos la referencia de la operación.
        </li>
        <li>
          <strong>Datos técnicos:</strong> dirección IP y registros de acceso, para la seguridad del sitio.
        </li>
      </ul>
      <p>No solicitamos datos personales sensibles. Este sitio no está dirigido a menores de edad.</p>

      <h2>3. Finalidades necesarias</h2>
      <p>
        Usamos sus datos para estas finalidades, que son necesarias para la relación que usted tiene con
        nosotros:
      </p>
      <ul>
        <li>Crear y administrar su cuenta y mantener su sesión.</li>
        <li>Procesar sus pedidos, cobrarlos, apartar y enviar la mercancía y darle seguimiento.</li>
        <li>Emitir sus comprobantes fiscales (CFDI) y cumplir obligaciones fiscales y contables.</li>
        <li>Atender dudas, devoluciones, garantías, cancelaciones y reembolsos.</li>
        <li>Prevenir fraudes y proteger la seguridad de su cuenta y del sitio.</li>
        <li>
          Enviarle los correos operativos de su cuenta y de sus pedidos (confirmaciones, recuperación de
          contraseña).
        </li>
      </ul>

      <h2>4. Finalidades voluntarias</h2>
      <p>
        Con su consentimiento, también podemos usar sus datos para estas finalidades, que{' '}
        <strong>no son necesarias</strong> para atender sus compras:
      </p>
      <ul>
        <li>Enviarle promociones, novedades y ofertas de productos para laboratorio.</li>
        <li>Invitarle a encuestas de satisfacción y estudios sobre la calidad de nuestro servicio.</li>
        <li>Conocer sus preferencias de compra para ofrecerle productos relacionados.</li>
      </ul>
      <Callout title="Cómo negarse a las finalidades voluntarias">
        <p className="mt-2!">
          Puede negarse desde ahora o en cualquier momento escribiendo a {privacy} con el asunto «Finalidades
          voluntarias», o con el enlace para darse de baja que incluye cada correo promocional. Negarse no
          afecta sus compras ni los servicios que nos pide.
        </p>
      </Callout>

      <h2>5. Con quién compartimos sus datos</h2>
      <p>
        Para cumplir las finalidades necesarias, compartimos los datos indispensables con proveedores que
        actúan por nuestra cuenta y bajo nuestras instrucciones (encargados): el procesador de pagos con
        tarjeta, las empresas de paquetería, el proveedor autorizado de certificación (PAC) que timbra sus
        facturas, y los servicios de alojamiento y de envío de correo del sitio.
      </p>
      <p>Además, sus datos pueden transferirse, sin requerir su consentimiento, a:</p>
      <ul>
        <li>
          El Servicio de Administración Tributaria (SAT), con los datos de sus facturas, por obligación legal.
        </li>
        <li>
          Autoridades competentes que lo requieran conforme a la ley, o cuando sea necesario para reconocer,
          ejercer o defender un derecho en un proceso.
        </li>
      </ul>
      <p>
        <strong>No vendemos ni transferimos sus datos a terceros para fines de publicidad.</strong>
      </p>

      <h2>6. Sus derechos ARCO</h2>
      <p>
        Usted puede <strong>acceder</strong> a sus datos, <strong>rectificarlos</strong>, pedir su{' '}
        <strong>cancelación</strong> u <strong>oponerse</strong> a su tratamiento para fines específicos, así
        como <strong>revocar su consentimiento</strong> o <strong>limitar</strong> el uso y la divulgación de
        sus datos. Envíe su solicitud a {privacy} con:
      </p>
      <ol>
        <li>Su nombre y el correo electrónico o domicilio para responderle.</li>
        <li>
          Un documento que acredite su identidad o, en su caso, la representación de quien actúa por usted.
        </li>
        <li>
          La descripción clara de los datos y del derecho que quiere ejercer, y cualquier documento que ayude
          a localizarlos.
        </li>
      </ol>
      <p>
        Le responderemos en un máximo de 20 días hábiles y, si procede, haremos efectiva su solicitud dentro
        de los 15 días hábiles siguientes. Muchos datos puede corregirlos usted mismo en{' '}
        <Link to="/cuenta">Mi cuenta</Link>. La cancelación no procede respecto de los datos que la ley nos
        obliga a conservar, como los de sus facturas, que se guardan por el plazo que señalan las
        disposiciones fiscales.
      </p>
      <p>
        Para dejar de recibir publicidad también puede inscribirse en el Registro Público para Evitar
        Publicidad de la Procuraduría Federal del Consumidor (Profeco).
      </p>

      <h2>7. Cookies y almacenamiento del navegador</h2>
      <p>
        Usamos solo una cookie de sesión y el almacenamiento local del navegador para su carrito; no usamos
        tecnologías de rastreo ni publicidad. Detalles en la{' '}
        <Link to="/cookies_policy">política de cookies</Link>.
      </p>

      <h2>8. Conservación y seguridad</h2>
      <p>
        Conservamos sus datos mientras tenga una cuenta con nosotros y, después, solo el tiempo que exigen las
        leyes fiscales y mercantiles. Las contraseñas se guardan cifradas de forma irreversible y el sitio se
        usa siempre por conexión segura (HTTPS).
      </p>

      <h2>9. Cambios a este aviso</h2>
      <p>
        Cualquier cambio a este aviso se publicará en esta misma página, con su fecha de actualización. Si un
        cambio requiere su consentimiento, se lo pediremos antes de aplicarlo.
      </p>
      <p>
        Si considera que su derecho a la protección de datos personales ha sido vulnerado, puede acudir a la
        autoridad garante en la materia.
      </p>
    </>
  );
}

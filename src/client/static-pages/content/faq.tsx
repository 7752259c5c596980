import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ChevronDownIcon } from '@/client/ui/icons.tsx';
import { shop } from '@/shared/shop.ts';
import { Mail, shipping } from './shop-text.tsx';

const questions: { q: string; a: ReactNode }[] = [
  {
    q: '¿Los precios incluyen IVA?',
    a: (
      <p>
        Sí. Todos los precios de la tienda están en pesos mexicanos (MXN) e incluyen el 16 % de IVA. El costo
        de envío se muestra aparte en su carrito antes de pagar.
      </p>
    ),
  },
  {
    q: '¿Cómo puedo pagar?',
    a: (
      <p>
        En línea con tarjeta de crédito o débito. El pago se procesa a través de un proveedor certificado;
        nosotros no guardamos los datos de su tarjeta. Si su banco solicita una verificación adicional (3-D
        Secure), la tienda le llevará a la página de su banco y luego de vuelta a su pedido.
      </p>
    ),
  },
  {
    q: '¿Cuánto cuesta el envío y cuánto tarda?',
    a: (
      <p>
        El envío cuesta {shipping.base} para paquetes de hasta {shipping.baseKg} kg, más {shipping.extra} por
        cada kilogramo adicional o fracción (IVA incluido). Los pedidos se entregan por paquetería en 2 a 5
        días hábiles en la mayor parte del país. Consulte los detalles en la{' '}
        <Link to="/politica_de_envios">política de envíos</Link>.
      </p>
    ),
  },
  {
    q: '¿Cómo solicito mi factura?',
    a: (
      <p>
        Entre a <Link to="/historial">su historial de pedidos</Link>, elija el pedido pagado y pulse
        «Solicitar factura». Tiene {shop.invoicingWindowDays} días naturales a partir del pago para pedirla.
        Necesita su RFC, nombre o razón social, régimen fiscal, uso del CFDI y código postal fiscal. Más
        información en <Link to="/facturacion">Facturación</Link>.
      </p>
    ),
  },
  {
    q: '¿Cómo sé dónde está mi pedido?',
    a: (
      <p>
        Cuando su pedido sale de nuestro almacén, la guía de rastreo aparece en{' '}
        <Link to="/historial">su historial de pedidos</Link> junto con el estado del pedido. Con ella puede
        seguir el envío en el sitio de la paquetería.
      </p>
    ),
  },
  {
    q: '¿Puedo cancelar un pedido?',
    a: (
      <p>
        Mientras su pedido está pagado, no se ha facturado y todavía no tiene guía de envío asignada, puede
        cancelarlo desde su historial con «Cancelar pedido»; el reembolso se hace a la misma tarjeta. Una vez
        que el pedido está en proceso de envío ya no es posible cancelarlo; consulte entonces la{' '}
        <Link to="/politica_de_devoluciones">política de devoluciones</Link>.
      </p>
    ),
  },
  {
    q: '¿Qué garantía tienen los equipos?',
    a: (
      <p>
        Los equipos tienen garantía de un año contra defectos de fabricación. Las fallas deben reportarse
        dentro de los 10 días siguientes a la recepción. No tienen garantía las partes de desgaste como
        lámparas, electrodos y resistencias. Vea la <Link to="/politica_de_venta">política de venta</Link>.
      </p>
    ),
  },
  {
    q: '¿Puedo comprar sin crear una cuenta?',
    a: (
      <p>
        Puede consultar el catálogo y armar su carrito sin cuenta. Para pagar le pedimos crear una cuenta con
        su correo electrónico: así puede seguir sus pedidos, guardar su domicilio de envío y solicitar su
        factura. ¿Dudas? Escríbanos a <Mail />.
      </p>
    ),
  },
];

/** A real FAQ as an accordion (native <details>: keyboard and screen-reader friendly without script). */
export function Faq() {
  return (
    <>
      <p>Las respuestas a las preguntas que más nos hacen. Si no encuentra la suya, contáctenos.</p>
      <div className="mt-8 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
        {questions.map(({ q, a }) => (
          <details key={q} className="group">
            <summary className="flex cursor-pointer list-none items-center justify-between gap-4 px-5 py-4 font-semibold text-slate-900 hover:bg-slate-50 [&::-webkit-details-marker]:hidden">
              <h2 className="mt-0! text-base! font-semibold tracking-normal sm:text-lg!">{q}</h2>
              <ChevronDownIcon className="size-5 shrink-0 text-brand-700 transition-transform group-open:rotate-180" />
            </summary>
            <div className="px-5 pb-5 [&>p]:mt-0">{a}</div>
          </details>
        ))}
      </div>
    </>
  );
}

import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { MailIcon, PhoneIcon, PinIcon } from '@/client/ui/icons.tsx';
import { Callout } from '@/client/ui/prose.tsx';
import { shop } from '@/shared/shop.ts';
import { fullAddress, Mail, telHref } from './shop-text.tsx';

export function About() {
  return (
    <>
      <p className="text-lg leading-8 text-slate-800">
        En <strong>{shop.tradeName}</strong> abastecemos a laboratorios de docencia, investigación, control de
        calidad y análisis clínicos de todo México con equipo, material de vidrio, plásticos, reactivos y
        consumibles. Somos {shop.legalName}, una empresa jalisciense con sede en {shop.address.city}.
      </p>
      <h2>Lo que hacemos</h2>
      <ul>
        <li>
          <strong>Surtido completo para el laboratorio:</strong> desde una caja de puntas para micropipeta
          hasta balanzas analíticas, centrífugas y espectrofotómetros.
        </li>
        <li>
          <strong>Asesoría técnica:</strong> le ayudamos a elegir el equipo y el grado de reactivo adecuados
          para su método, y le enviamos fichas técnicas y certificados de lote.
        </li>
        <li>
          <strong>Compra sencilla:</strong> precios en pesos con IVA incluido, pago con tarjeta, envío a todo
          el país y factura CFDI 4.0 que usted solicita en línea.
        </li>
        <li>
          <strong>Servicio después de la venta:</strong> garantía de fábrica de un año en equipos y atención
          directa de nuestro equipo de ventas.
        </li>
      </ul>
      <h2>Dónde estamos</h2>
      <p>
        Atendemos desde nuestra sucursal en Guadalajara, nuestra sucursal en la Ciudad de México y nuestra
        oficina matriz y almacén en Tlaquepaque, Jalisco. Consulte direcciones y teléfonos en{' '}
        <Link to="/sucursales">Sucursales</Link> o escríbanos desde <Link to="/contacto">Contacto</Link>.
      </p>
      <h2>Nuestro compromiso</h2>
      <p>
        Enfocados en la excelencia: trabajamos solo con fabricantes que entregan documentación y trazabilidad
        de sus productos, revisamos cada pedido antes de enviarlo y respondemos sus dudas en horario de
        oficina — {shop.hours.charAt(0).toLowerCase() + shop.hours.slice(1)}.
      </p>
    </>
  );
}

function ContactCard({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <div className="flex gap-4 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-700">
        {icon}
      </span>
      <div className="min-w-0">
        <h2 className="mt-0! text-base font-semibold text-slate-900">{title}</h2>
        <div className="mt-1 text-slate-700 [&_p]:mt-1">{children}</div>
      </div>
    </div>
  );
}

export function Contact() {
  return (
    <>
      <p>Con gusto le atendemos por teléfono, correo electrónico o WhatsApp.</p>
      <div className="mt-8 grid gap-4 sm:grid-cols-2">
        <ContactCard icon={<PinIcon />} title="Dirección">
          <p>{fullAddress()}</p>
        </ContactCard>
        <ContactCard icon={<PhoneIcon />} title="Teléfonos">
          <ul className="mt-0! list-none! space-y-1! pl-0!">
            {shop.phones.map((p) => (
              <li key={p} className="pl-0!">
                <a href={telHref(p)}>{p}</a>
              </li>
            ))}
          </ul>
        </ContactCard>
        <ContactCard icon={<MailIcon />} title="Correo electrónico">
          <p>
            <Mail />
          </p>
        </ContactCard>
        <ContactCard
          icon={
            <svg
              viewBox="0 0 24 24"
              className="size-5"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              aria-hidden="true"
            >
              <circle cx="12" cy="12" r="9" />
              <path d="M12 7v5l3 2" strokeLinecap="round" />
            </svg>
          }
          title="Horario de atención"
        >
          <p>{shop.hours}</p>
        </ContactCard>
      </div>
      <h2>Quejas y aclaraciones</h2>
      <p>
        Si algo no salió como esperaba con su pedido, escríbanos a <Mail to={shop.complaintsEmail} /> con su
        número de pedido; le respondemos en un máximo de dos días hábiles. También puede acudir a la
        Procuraduría Federal del Consumidor (Profeco), Teléfono del Consumidor 55 5568 8722 y 800 468 8722.
      </p>
      <p>
        ¿Busca una sucursal en particular? Vea <Link to="/sucursales">nuestras sucursales</Link>.
      </p>
    </>
  );
}

export function Branches() {
  return (
    <>
      <p>
        Visítenos o llámenos a la sucursal más cercana. Horario:{' '}
        {shop.hours.charAt(0).toLowerCase() + shop.hours.slice(1)}.
      </p>
      <ul className="mt-8! list-none! space-y-4! pl-0!">
        {shop.branches.map((b) => (
          <li key={b.name} className="pl-0!">
            <article className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
              <h2 className="mt-0! text-lg font-semibold text-slate-900">{b.name}</h2>
              <div className="mt-3 grid gap-3 text-sm sm:grid-cols-[minmax(0,1fr)_14rem] sm:gap-6">
                <div className="space-y-1.5">
                  <p className="mt-0! flex gap-2">
                    <PinIcon className="mt-1 size-4 shrink-0 text-brand-600" />
                    <span>{b.address}</span>
                  </p>
                  <p className="mt-0! pl-6 text-slate-600">Horario: {b.hours}</p>
                </div>
                <div className="space-y-1.5">
                  {b.phones.map((p) => (
                    <p key={p} className="mt-0! flex gap-2">
                      <PhoneIcon className="mt-1 size-4 shrink-0 text-brand-600" />
                      <a href={telHref(p)}>{p}</a>
                    </p>
                  ))}
                  <p className="mt-0! flex gap-2">
                    <MailIcon className="mt-1 size-4 shrink-0 text-brand-600" />
                    <span className="min-w-0 break-all">
                      <Mail to={b.email} />
                    </span>
                  </p>
                </div>
              </div>
            </article>
          </li>
        ))}
      </ul>
      <Callout title="Pedidos en línea">
        <p>
          Los pedidos de la tienda en línea se surten desde la oficina matriz y almacén en Tlaquepaque,
          Jalisco. Al pagar puede elegir «Recoger en sucursal» en cualquiera de estas sucursales, sin costo de
          envío: le avisamos por correo con un código cuando su pedido esté listo.
        </p>
      </Callout>
    </>
  );
}

import { Link } from 'react-router';
import { BrandMark } from '@/client/ui/brand-mark.tsx';
import { MailIcon, PhoneIcon, PinIcon } from '@/client/ui/icons.tsx';
import { shop } from '@/shared/shop.ts';

const info = [
  { to: '/nosotros', label: 'Nosotros' },
  { to: '/sucursales', label: 'Sucursales' },
  { to: '/contacto', label: 'Contacto' },
  { to: '/preguntas_frecuentes', label: 'Preguntas frecuentes' },
];
const policies = [
  { to: '/facturacion', label: 'Facturación' },
  { to: '/politica_de_venta', label: 'Política de venta' },
  { to: '/politica_de_devoluciones', label: 'Política de devoluciones' },
  { to: '/politica_de_envios', label: 'Política de envíos' },
  { to: '/terminos_y_condiciones', label: 'Términos y condiciones' },
  { to: '/politica_de_privacidad', label: 'Aviso de privacidad' },
  { to: '/cookies_policy', label: 'Política de cookies' },
];
const socialLabels = {
  facebook: 'Facebook',
  instagram: 'Instagram',
  linkedin: 'LinkedIn',
  youtube: 'YouTube',
} as const;

export function Footer() {
  const a = shop.address;
  const social = Object.entries(shop.social).filter(([, url]) => url) as [
    keyof typeof socialLabels,
    string,
  ][];
  return (
    <footer className="mt-16 bg-brand-900 text-brand-100">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-12 sm:grid-cols-2 lg:grid-cols-4">
        <div className="space-y-4">
          <BrandMark light />
          <p className="text-sm">{shop.legalName}</p>
        </div>
        <div>
          <h2 className="text-sm font-semibold uppercase tracking-wider text-white">Contacto</h2>
          <ul className="mt-4 space-y-3 text-sm">
            <li className="flex gap-2">
              <PinIcon className="mt-0.5 size-4 shrink-0" />
              <span>
                {a.street}, {a.neighbourhood}, {a.postalCode} {a.city}, {a.state}
              </span>
            </li>
            <li className="flex gap-2">
              <PhoneIcon className="mt-0.5 size-4 shrink-0" />
              <span>{shop.phones.join(' · ')}</span>
            </li>
            <li className="flex gap-2">
              <MailIcon className="mt-0.5 size-4 shrink-0" />
              <a href={`mailto:${shop.email}`} className="hover:text-white hover:underline">
                {shop.email}
              </a>
            </li>
            <li>{shop.hours}</li>
          </ul>
        </div>
        <div>
          <h2 className="text-sm font-semibold uppercase tracking-wider text-white">Información</h2>
          <ul className="mt-4 space-y-2 text-sm">
            {info.map((l) => (
              <li key={l.to}>
                <Link to={l.to} className="hover:text-white hover:underline">
                  {l.label}
                </Link>
              </li>
            ))}
            <li>
              {shop.paymentMethodsUrl ? (
                <a href={shop.paymentMethodsUrl} className="hover:text-white hover:underline">
                  Formas de pago
                </a>
              ) : (
                <span>
                  Formas de pago: tarjeta (también a meses sin intereses), transferencia SPEI y efectivo en
                  tienda
                </span>
              )}
            </li>
          </ul>
        </div>
        <div>
          <h2 className="text-sm font-semibold uppercase tracking-wider text-white">Políticas</h2>
          <ul className="mt-4 space-y-2 text-sm">
            {policies.map((l) => (
              <li key={l.to}>
                <Link to={l.to} className="hover:text-white hover:underline">
                  {l.label}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      </div>
      <div className="border-t border-white/10">
        <div className="mx-auto flex max-w-7xl flex-col items-center justify-between gap-2 px-4 pt-5 pb-20 text-xs sm:flex-row sm:pb-5">
          <p>
            © {shop.copyrightYear} {shop.legalName} Todos los derechos reservados.
          </p>
          {social.length > 0 && (
            <ul className="flex gap-4">
              {social.map(([key, url]) => (
                <li key={key}>
                  <a href={url} rel="noopener noreferrer" className="hover:text-white">
                    {socialLabels[key]}
                  </a>
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
    </footer>
  );
}

import { useMatches } from 'react-router';
import { PageHeading } from '@/client/ui/page-heading.tsx';

export const staticTitles = {
  faq: 'Preguntas frecuentes',
  contact: 'Contacto',
  about: 'Nosotros',
  terms: 'Términos y condiciones',
  cookies: 'Política de cookies',
  privacy: 'Aviso de privacidad',
  shipping: 'Política de envíos',
  invoicing: 'Facturación',
  sales: 'Política de venta',
  returns: 'Política de devoluciones',
  branches: 'Sucursales',
} as const;

export type StaticPageKey = keyof typeof staticTitles;

// The catalogue issue fills these pages with the shop's texts; until then each shows its heading.
export function Component() {
  const matches = useMatches();
  const page = (matches.at(-1)?.handle as { page?: StaticPageKey } | undefined)?.page ?? 'about';
  return <PageHeading title={staticTitles[page]} />;
}

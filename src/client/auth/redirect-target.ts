/**
 * The `redirect` parameter of /ingresar and /registro is honoured only for a same-site path: one
 * leading '/', not '//' or '/\', no scheme; anything else is '/' (SPEC-NOTES 2).
 */
export function safeRedirect(value: string | null | undefined): string {
  if (!value) return '/';
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return '/';
  if ([...value].some((c) => c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127)) return '/';
  try {
    const url = new URL(value, 'http://shop.invalid');
    if (url.origin !== 'http://shop.invalid') return '/';
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return '/';
  }
}

/** `redirect=` value for a link: encoded, but with readable slashes (/registro?redirect=/carrito). */
export const redirectParam = (target: string) => encodeURIComponent(target).replace(/%2F/g, '/');

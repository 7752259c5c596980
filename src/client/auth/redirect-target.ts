/**
 * The `redirect` parameter of /ingresar and /registro is honoured only for a same-site path: one
 * leading '/', not '//' or '/\', no scheme; anything else is '/' (SPEC-NOTES 2).
 */
export function safeRedirect(value: string | null | undefined): string {
  if (!value) return '/';
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return '/';
  if (/[\u0000-\u001f\u007f]/.test(value)) return '/';
  try {
    const url = new URL(value, 'http://shop.invalid');
    if (url.origin !== 'http://shop.invalid') return '/';
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return '/';
  }
}

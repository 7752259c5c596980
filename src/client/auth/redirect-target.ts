/**
 * The `redirect` parameter of /ingresar and /registro is honoured only for a path of the shop itself
 * (SPEC-NOTES 2). Normalise first, then validate: the value is resolved against the shop's origin (dot
 * segments, %2e, backslashes and tabs handled as a browser does), and the resulting path must itself
 * resolve to the shop's origin again — `/..//evil.example/` normalises to `//evil.example/`, which a
 * browser would read as another host. Anything else is '/'.
 */
export function safeRedirect(value: string | null | undefined, origin = shopOrigin()): string {
  if (!value) return '/';
  if ([...value].some((c) => c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127)) return '/';
  if (!value.startsWith('/')) return '/';
  try {
    const resolved = new URL(value, `${origin}/`);
    if (resolved.origin !== origin) return '/';
    const target = `${resolved.pathname}${resolved.search}${resolved.hash}`;
    // Validate what will be used: one leading '/', never '//' or '/\' (protocol-relative), same origin.
    if (!target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return '/';
    if (new URL(target, `${origin}/ingresar`).origin !== origin) return '/';
    return target;
  } catch {
    return '/';
  }
}

function shopOrigin(): string {
  return typeof window !== 'undefined' && window.location ? window.location.origin : 'http://shop.invalid';
}

/** `redirect=` value for a link: encoded, but with readable slashes (/registro?redirect=/carrito). */
export const redirectParam = (target: string) => encodeURIComponent(target).replace(/%2F/g, '/');

/**
 * Escaping for markup the server writes by hand: mails, the simulated bank page, the sitemap, SOAP bodies, SVG.
 * One escape serves text and quoted attribute values alike, in HTML, XML and SVG: the five characters that can
 * end a text or an attribute become entities (`&#39;` is valid in both HTML and XML, unlike `&apos;` in HTML 4).
 *
 * Not here, on purpose: the CFDI's attribute escape (invoices/cfdi.ts also encodes tab, CR and LF, which XML's
 * attribute-value normalisation would turn into spaces and change the sealed cadena), and the server renderer's
 * per-request escapes in src/server/spa/ (decision 047).
 */

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** `value` as text or a quoted attribute value of HTML, XML or SVG. */
export const escapeMarkup = (value: string): string => value.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);

const NAMED: Record<string, string> = { lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' };

/** An XML text or attribute value back to text: the predefined entities and character references. */
export const unescapeXml = (value: string): string =>
  value.replace(/&(lt|gt|quot|apos|amp|#\d+|#x[\da-fA-F]+);/g, (entity, name: string) => {
    if (name.startsWith('#x')) return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(Number(name.slice(1)));
    return NAMED[name] ?? entity;
  });

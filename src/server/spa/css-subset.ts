/**
 * The page's stylesheet cut to what its first HTML uses (docs/decisions/026). The built stylesheet (Tailwind) is
 * ≈ 57 KB, three quarters of it the utilities layer; a page's markup uses a fifth of those utilities. The head keeps
 * everything that is not a utility (the layer order, theme variables, base styles, @property, keyframes), and the
 * body starts with the utilities whose class the page's markup carries. The boot script loads the whole stylesheet
 * before the JavaScript (src/server/spa/boot-script.ts), so whatever React shows after hydration (an open menu, a
 * dialog) is styled; without JavaScript the page needs no other class than those in its markup.
 */

type Item =
  | { kind: 'rule'; text: string; classes: string[] | null }
  | { kind: 'group'; prelude: string; items: Item[] }
  | { kind: 'raw'; text: string };

export type SplitStylesheet = {
  /** The stylesheet without the utilities' rules (`@layer utilities;` keeps the layer's place in the order). */
  frame: string;
  utilities: Item[];
};

/** Top-level pieces of a CSS text: `prelude{body}` or a statement ending in `;`. Quotes and escapes respected. */
function pieces(css: string): { prelude: string; body: string | null }[] {
  const out: { prelude: string; body: string | null }[] = [];
  let depth = 0;
  let start = 0;
  let open = -1;
  let quote: string | null = null;
  for (let i = 0; i < css.length; i += 1) {
    const c = css[i];
    if (quote) {
      if (c === '\\') i += 1;
      else if (c === quote) quote = null;
    } else if (c === '\\') i += 1;
    else if (c === '"' || c === "'") quote = c;
    else if (c === '/' && css[i + 1] === '*') {
      const end = css.indexOf('*/', i + 2);
      i = end < 0 ? css.length : end + 1;
      if (depth === 0) start = i + 1;
    } else if (c === '{') {
      if (depth === 0) open = i;
      depth += 1;
    } else if (c === '}') {
      depth -= 1;
      if (depth === 0) {
        out.push({ prelude: css.slice(start, open).trim(), body: css.slice(open + 1, i) });
        start = i + 1;
      }
    } else if (c === ';' && depth === 0) {
      const text = css.slice(start, i + 1).trim();
      if (text !== ';') out.push({ prelude: text, body: null });
      start = i + 1;
    }
  }
  return out;
}

const unescapeCss = (s: string) =>
  s.replace(/\\([0-9a-fA-F]{1,6})\s?|\\(.)/g, (_m, hex: string | undefined, ch: string | undefined) =>
    hex ? String.fromCodePoint(Number.parseInt(hex, 16)) : (ch ?? ''),
  );

/**
 * The class a utility's selector is for: the first class of each selector of the list (`.sm\:block`,
 * `.hover\:x:hover`, `:where(.space-y-2>:not(:last-child))`, `.group-hover\:x:is(:where(.group):hover *)`).
 * null when a selector names no class: such a rule is always kept.
 */
function selectorClasses(selector: string): string[] | null {
  const classes: string[] = [];
  for (const part of selector.split(/,(?![^(]*\))/)) {
    const m = /\.((?:\\[0-9a-fA-F]{1,6}\s?|\\.|[\w-]|[\u0080-\uffff])+)/.exec(part);
    if (!m) return null;
    classes.push(unescapeCss(m[1]!));
  }
  return classes;
}

function parseItems(css: string): Item[] {
  return pieces(css).map(({ prelude, body }): Item => {
    if (body === null) return { kind: 'raw', text: prelude };
    if (prelude.startsWith('@')) return { kind: 'group', prelude, items: parseItems(body) };
    return { kind: 'rule', text: `${prelude}{${body}}`, classes: selectorClasses(prelude) };
  });
}

/** Cuts the built stylesheet at its utilities layer; null when it has none (the whole sheet is then inline). */
export function splitStylesheet(css: string): SplitStylesheet | null {
  let utilities: Item[] | null = null;
  const frame = pieces(css)
    .map(({ prelude, body }) => {
      if (body === null) return prelude;
      if (prelude === '@layer utilities' && utilities === null) {
        utilities = parseItems(body);
        return '@layer utilities;';
      }
      return `${prelude}{${body}}`;
    })
    .join('');
  return utilities ? { frame, utilities } : null;
}

const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#x27': "'", '#39': "'" };

/** Every class named by a `class="…"` attribute of the markup (scanned with indexOf: it runs at every render). */
export function classesIn(html: string, into = new Set<string>()): Set<string> {
  const attr = ' class="';
  for (let at = html.indexOf(attr); at >= 0; at = html.indexOf(attr, at)) {
    const start = at + attr.length;
    const end = html.indexOf('"', start);
    if (end < 0) break;
    let value = html.slice(start, end);
    if (value.includes('&'))
      value = value.replace(/&(amp|lt|gt|quot|#x27|#39);/g, (_e, name: string) => entities[name]!);
    for (const c of value.split(/\s+/)) if (c) into.add(c);
    at = end;
  }
  return into;
}

function keep(items: Item[], classes: ReadonlySet<string>): string {
  let out = '';
  for (const item of items) {
    if (item.kind === 'raw') out += item.text;
    else if (item.kind === 'rule') {
      if (!item.classes || item.classes.some((c) => classes.has(c))) out += item.text;
    } else {
      const inner = keep(item.items, classes);
      if (inner) out += `${item.prelude}{${inner}}`;
    }
  }
  return out;
}

/** The utilities layer with only the rules for these classes (in the stylesheet's order: the cascade is unchanged). */
export function utilitiesFor(split: SplitStylesheet, classes: ReadonlySet<string>): string {
  return `@layer utilities{${keep(split.utilities, classes)}}`;
}

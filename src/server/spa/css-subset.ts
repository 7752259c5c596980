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
  /** `@property --tw-…` rules that only utilities use: sent with the utilities that name their property. */
  properties: { name: string; text: string }[];
  /**
   * The theme layer's variables (`:root,:host{--color-…}`), sent as far as the page's CSS reads them (`@layer theme;`
   * keeps the layer's place in the head); what the head's own rules read is always sent.
   */
  theme: { selector: string; vars: Map<string, string> } | null;
  /** Theme variables the head's rules read. */
  themeAlways: Set<string>;
};

/** Declarations of a rule's body, split at the top level (`;` inside parentheses or quotes is not a split). */
function declarations(body: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  let quote: string | null = null;
  for (let i = 0; i < body.length; i += 1) {
    const c = body[i];
    if (quote) {
      if (c === '\\') i += 1;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '(') depth += 1;
    else if (c === ')') depth -= 1;
    else if (c === ';' && depth === 0) {
      out.push(body.slice(start, i));
      start = i + 1;
    }
  }
  if (body.slice(start).trim()) out.push(body.slice(start));
  return out;
}

/** The custom properties a CSS text reads (`var(--x`). */
function readsVars(css: string, into = new Set<string>()): Set<string> {
  for (const m of css.matchAll(/var\((--[\w-]+)/g)) into.add(m[1]!);
  return into;
}

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
  const all = pieces(css);
  // What names a custom property outside the utilities (the `properties` layer only repeats their initial values
  // for browsers without @property).
  const elsewhere = all
    .filter(({ prelude }) => !prelude.startsWith('@property') && prelude !== '@layer properties')
    .filter(({ prelude }) => prelude !== '@layer utilities')
    .map(({ prelude, body }) => `${prelude}{${body ?? ''}}`)
    .join('');
  const properties: { name: string; text: string }[] = [];
  let theme: SplitStylesheet['theme'] = null;
  const frame = all
    .map(({ prelude, body }) => {
      if (body === null) return prelude;
      if (prelude === '@layer utilities' && utilities === null) {
        utilities = parseItems(body);
        return '@layer utilities;';
      }
      if (prelude === '@layer theme' && theme === null) {
        const rules = pieces(body);
        const only = rules.length === 1 && rules[0]!.body !== null ? rules[0]! : null;
        if (only && !only.body!.includes('{')) {
          const vars = new Map<string, string>();
          for (const d of declarations(only.body!)) {
            const colon = d.indexOf(':');
            if (colon > 0) vars.set(d.slice(0, colon).trim(), d.trim());
          }
          theme = { selector: only.prelude, vars };
          return '@layer theme;';
        }
      }
      const property = /^@property\s+(--[\w-]+)$/.exec(prelude)?.[1];
      if (property && !elsewhere.includes(`${property}:`) && !elsewhere.includes(`${property})`)) {
        properties.push({ name: property, text: `${prelude}{${body}}` });
        return '';
      }
      return `${prelude}{${body}}`;
    })
    .join('');
  if (!utilities) return null;
  const split: SplitStylesheet = { frame, utilities, properties, theme, themeAlways: new Set() };
  split.themeAlways = themeClosure(split, readsVars(frame));
  return split;
}

/** The theme variables `reads` needs, with those their values read in turn. */
function themeClosure(split: SplitStylesheet, reads: Set<string>): Set<string> {
  const vars = split.theme?.vars;
  const out = new Set<string>();
  const todo = [...reads];
  while (todo.length) {
    const name = todo.pop()!;
    const decl = vars?.get(name);
    if (!decl || out.has(name)) continue;
    out.add(name);
    todo.push(...readsVars(decl));
  }
  return out;
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

/**
 * The utilities layer with only the rules for these classes (in the stylesheet's order: the cascade is unchanged),
 * and the `@property` rules of the custom properties those rules set or read.
 */
export function utilitiesFor(split: SplitStylesheet, classes: ReadonlySet<string>): string {
  const rules = keep(split.utilities, classes);
  const named = (name: string) =>
    rules.includes(`${name}:`) || rules.includes(`${name})`) || rules.includes(`${name},`);
  const properties = split.properties
    .filter((p) => named(p.name))
    .map((p) => p.text)
    .join('');
  let theme = '';
  if (split.theme) {
    const needed = themeClosure(split, readsVars(rules + properties, new Set(split.themeAlways)));
    const decls = [...split.theme.vars].filter(([name]) => needed.has(name)).map(([, d]) => d);
    if (decls.length) theme = `@layer theme{${split.theme.selector}{${decls.join(';')}}}`;
  }
  return `${theme}@layer utilities{${rules}}${properties}`;
}

import fc from 'fast-check';

/**
 * fast-check arbitraries for the API fuzzer, made from the JSON schemas of /api/openapi.json (which
 * fastify-type-provider-zod generates from the shared Zod schemas): values that fit the schema, the
 * same with one part broken, and junk that fits nothing.
 */
export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
  minItems?: number;
  maxItems?: number;
  nullable?: boolean;
  default?: unknown;
};

/** Strings that break naive code: control characters, bidi overrides, lone surrogates, markup, SQL. */
export const ODD_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u0007\u001b[31m',
  '\uFEFF',
  '\u202Eevil\u202C',
  '\uD800',
  '\uDFFF\uD800',
  '𝕏𝕐𝕫',
  '👩🏽‍🔬🧪',
  'ß'.repeat(300),
  'ǅǈ',
  'İı',
  'e\u0301\u0301\u0301\u0301',
  'Ω≈ç√∫',
  '\r\n\r\nX-Injected: 1',
  '%00',
  '%ff%fe',
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  "' or 1=1 --",
  "'; drop table orders; --",
  '" onmouseover="alert(1)',
  '<script>window.__xss=1</script>',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, on purpose
  '${7*7}{{7*7}}',
  'javascript:alert(1)',
  '__proto__',
  'constructor',
  '1e309',
  '-0',
  'NaN',
  'null',
  'x'.repeat(5000),
];

export const oddString = () => fc.oneof(fc.constantFrom(...ODD_STRINGS), fc.string({ unit: 'binary' }));

/** Any JSON value, including awkward numbers and nesting. */
export const junkValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    null,
    true,
    false,
    0,
    -1,
    -0,
    1.5,
    2 ** 53 + 1,
    1e308,
    -1e308,
    [],
    {},
    '',
    'x'.repeat(70_000),
  ),
  oddString(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom({ __proto__: { admin: true } }, { constructor: { prototype: { admin: true } } }),
);

const types = (s: JsonSchema): string[] => (Array.isArray(s.type) ? s.type : s.type ? [s.type] : []);

function fitLength(min: number, max: number) {
  return (v: string) => {
    let out = v;
    if (out.length > max) out = out.slice(0, max);
    while (out.length < min) out += out.length > 0 ? out : 'a';
    return out.slice(0, Math.max(max, min));
  };
}

function stringArb(s: JsonSchema): fc.Arbitrary<string> {
  const min = s.minLength ?? 0;
  const max = Math.max(min, Math.min(s.maxLength ?? 80, 400));
  if (s.format === 'email') return fc.emailAddress().map(fitLength(min, max));
  if (s.format === 'date') return fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
  if (s.format === 'date-time') return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
  if (s.pattern) {
    for (const flags of ['u', '']) {
      try {
        const re = new RegExp(s.pattern, flags);
        const arb = fc.stringMatching(re);
        fc.sample(arb, 1);
        return arb.map(fitLength(min, max));
      } catch {
        // not a pattern fast-check can generate from: plain strings below
      }
    }
  }
  return fc
    .oneof(
      { weight: 3, arbitrary: fc.string({ minLength: min, maxLength: Math.min(max, 60) }) },
      { weight: 1, arbitrary: fc.string({ minLength: min, maxLength: Math.min(max, 60), unit: 'grapheme' }) },
      { weight: 1, arbitrary: fc.constantFrom(...ODD_STRINGS).map(fitLength(min, max)) },
    )
    .map(fitLength(min, max));
}

function numberArb(s: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const lo = typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + 1 : s.minimum;
  const hi = typeof s.exclusiveMaximum === 'number' ? s.exclusiveMaximum - 1 : s.maximum;
  const min = Math.max(lo ?? -1_000_000_000, -1_000_000_000);
  const max = Math.min(hi ?? 1_000_000_000, 1_000_000_000);
  return integer
    ? fc.integer({ min: Math.ceil(min), max: Math.floor(Math.max(min, max)) })
    : fc.double({ min, max: Math.max(min, max), noNaN: true });
}

/** Values that fit the schema (as far as JSON Schema can say; refinements are Zod's). */
export function validArb(s: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!s || depth > 6) return fc.constant(null);
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((a) => validArb(a, depth + 1)));
  if (s.allOf?.[0]) return validArb(Object.assign({}, ...s.allOf), depth + 1);
  const ts = types(s).filter((x) => x !== 'null');
  const base = (type: string | undefined): fc.Arbitrary<unknown> => {
    switch (type) {
      case 'string':
        return stringArb(s);
      case 'integer':
        return numberArb(s, true);
      case 'number':
        return numberArb(s, false);
      case 'boolean':
        return fc.boolean();
      case 'array':
        return fc.array(validArb(s.items, depth + 1), {
          minLength: s.minItems ?? 0,
          maxLength: Math.max(s.minItems ?? 0, Math.min(s.maxItems ?? 4, 4)),
        });
      case 'object':
      case undefined: {
        if (!s.properties)
          return type === 'object' ? fc.dictionary(fc.string(), junkValue, { maxKeys: 3 }) : junkValue;
        const props = Object.fromEntries(
          Object.entries(s.properties).map(([k, v]) => [k, validArb(v, depth + 1)]),
        );
        return fc.record(props, { requiredKeys: (s.required ?? []).filter((k) => k in props) });
      }
      default:
        return junkValue;
    }
  };
  const arb = ts.length > 1 ? fc.oneof(...ts.map(base)) : base(ts[0]);
  return s.nullable || types(s).includes('null') ? fc.option(arb, { nil: null, freq: 8 }) : arb;
}

/** A value that fits the schema except in one place: a field dropped, retyped, or given junk. */
export function brokenArb(s: JsonSchema | undefined): fc.Arbitrary<unknown> {
  if (!s?.properties) return junkValue;
  const keys = Object.keys(s.properties);
  if (keys.length === 0) return junkValue;
  return fc
    .tuple(validArb(s), fc.constantFrom(...keys), junkValue, fc.constantFrom('drop', 'junk', 'extra'))
    .map(([value, key, junk, how]) => {
      const obj = { ...(value as Record<string, unknown>) };
      if (how === 'drop') delete obj[key];
      else if (how === 'junk') obj[key] = junk;
      else
        Object.assign(obj, { role: 'staff', userId: 1, id: 1, isAdmin: true, __proto__: { polluted: true } });
      return obj;
    });
}

/** Nesting deep enough to hurt a recursive parser or validator, still under the body limit. */
export const deepJson = (depth: number, kind: 'array' | 'object') =>
  kind === 'array'
    ? `${'['.repeat(depth)}${']'.repeat(depth)}`
    : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

/** Bodies that are not JSON at all, or almost JSON. */
export const MALFORMED_JSON = [
  '',
  ' ',
  '{',
  '}',
  '{"a":}',
  "{'a':1}",
  '{"a":1,}',
  '[1,2',
  'null',
  'true',
  '"texto"',
  '123',
  '{"a":NaN}',
  '{"a":Infinity}',
  '{"a":1e999999}',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '\uFEFF{"a":1}',
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
  '\u0000',
  '{"a":1}{"b":2}',
  '<xml/>',
  'a=1&b=2',
];

/** Path parameter values that try to escape their segment or break decoding. */
export const PATH_JUNK = [
  '..',
  '..%2f..%2f..%2fetc%2fpasswd',
  '%2e%2e%2f%2e%2e%2f',
  '%2e%2e',
  '..%5c..%5cwin.ini',
  '%00',
  'abc%00def',
  '%ff',
  '%E0%A4%A',
  '%',
  '%25',
  '%u0041',
  '%C0%AF',
  '%EF%BC%8F',
  encodeURIComponent('<script>window.__xss=1</script>'),
  encodeURIComponent("1' or '1'='1"),
  '-1',
  '0',
  '1.5',
  '1e3',
  '0x10',
  '99999999999999999999',
  '2147483648',
  encodeURIComponent('🧪'),
  'a'.repeat(3000),
  '%20',
  'null',
  'undefined',
  '__proto__',
];

import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  brokenArb,
  deepJson,
  type JsonSchema,
  junkValue,
  MALFORMED_JSON,
  ODD_STRINGS,
  PATH_JUNK,
  validArb,
} from '../support/fuzz-arbitraries.ts';
import {
  changedTables,
  createWorld,
  databaseFingerprint,
  errorBodyProblem,
  type Person,
  renewSession,
  type World,
  walPosition,
} from '../support/world.ts';

/**
 * Every operation of /api/openapi.json fed generated requests through app.inject: values made from
 * the operation's own JSON schemas (generated from the shared Zod schemas), the same with one part
 * broken, junk, malformed JSON, wrong content types, huge and deeply nested bodies, odd Unicode and
 * path parameters that try to escape their segment. For every answer: no 5xx; a 4xx carries a
 * Spanish `error.message`; and a rejected state-changing request leaves the database as it was.
 *
 * Deterministic: the seed is fixed (FUZZ_SEED overrides it to explore further); FUZZ_RUNS sets the
 * generated requests per operation.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20_250_610);
const RUNS = Number(process.env.FUZZ_RUNS ?? 36);

type Operation = {
  method: string;
  path: string;
  pathParams: { name: string; schema: JsonSchema }[];
  query: { name: string; schema: JsonSchema; required: boolean }[];
  headers: { name: string; schema: JsonSchema }[];
  body: JsonSchema | undefined;
};

type Who = 'visitor' | 'a' | 'b' | 'staff';
type FuzzRequest = {
  who: Who;
  params: Record<string, string>;
  query: string;
  headers: Record<string, string>;
  body?: { payload: string; contentType: string | undefined };
};

type Failure = { request: string; status: number; problem: string };

let world: World;
let operations: Operation[];
const failures: Failure[] = [];
let sent = 0;
let checkedUnchanged = 0;
let fpMs = 0;
const statuses = new Map<number, number>();

beforeAll(async () => {
  world = await createWorld();
  const spec = (await world.t.app.inject({ url: '/api/openapi.json' })).json() as {
    paths: Record<string, Record<string, OpenApiOperation>>;
  };
  operations = [];
  for (const [path, ops] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const parameters = op.parameters ?? [];
      operations.push({
        method: method.toUpperCase(),
        path,
        pathParams: parameters
          .filter((p) => p.in === 'path')
          .map((p) => ({ name: p.name, schema: p.schema })),
        query: parameters
          .filter((p) => p.in === 'query')
          .map((p) => ({ name: p.name, schema: p.schema, required: Boolean(p.required) })),
        headers: parameters.filter((p) => p.in === 'header').map((p) => ({ name: p.name, schema: p.schema })),
        body: op.requestBody?.content?.['application/json']?.schema,
      });
    }
  }
}, 240_000);

afterAll(async () => {
  const byStatus = [...statuses].sort(([x], [y]) => x - y).map(([k, v]) => `${k}×${v}`);
  console.log(
    `fuzz: ${sent} solicitudes (${byStatus.join(' ')}); ${checkedUnchanged} rechazos con la base intacta verificada; huella ${Math.round(fpMs)} ms`,
  );
  await world?.t.close();
});

beforeEach(() => {
  failures.length = 0;
});

type OpenApiOperation = {
  parameters?: { in: string; name: string; required?: boolean; schema: JsonSchema }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
};

/** Values of the world that make a request reach deeper than "not found". */
function realValues(name: string): string[] {
  const { a, b, staff } = world;
  switch (name) {
    case 'number':
      return [String(a.order), String(b.order)];
    case 'code':
      return [a.cartCode, b.cartCode];
    case 'id':
      return [String(a.id), String(b.id), String(staff.id)];
    default:
      return [];
  }
}

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/json; charset=latin1',
  'application/json, text/plain',
  'application/jsonx',
  'text/plain',
  'text/plain;charset=UTF-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=----x',
  'application/xml',
  'application/octet-stream',
  '*/*',
  ';',
  undefined,
];

/** encodeURIComponent, but a lone surrogate becomes its (invalid) UTF-8 bytes instead of throwing. */
const encodePart = (v: string) =>
  [...v]
    .map((c) => {
      try {
        return encodeURIComponent(c);
      } catch {
        return '%ED%A0%80';
      }
    })
    .join('');

function requestArb(op: Operation): fc.Arbitrary<FuzzRequest> {
  const param = (p: { name: string; schema: JsonSchema }) =>
    fc.oneof(
      { weight: 3, arbitrary: validArb(p.schema).map((v) => encodePart(String(v))) },
      { weight: 2, arbitrary: fc.constantFrom(...PATH_JUNK) },
      ...(realValues(p.name).length > 0
        ? [{ weight: 3, arbitrary: fc.constantFrom(...realValues(p.name)) }]
        : []),
    );
  const params = fc.record(Object.fromEntries(op.pathParams.map((p) => [p.name, param(p)]))) as fc.Arbitrary<
    Record<string, string>
  >;

  const queryValid = fc
    .record(Object.fromEntries(op.query.map((q) => [q.name, validArb(q.schema)])), {
      requiredKeys: op.query.filter((q) => q.required).map((q) => q.name),
    })
    .map((values) => {
      const search = new URLSearchParams();
      for (const [k, v] of Object.entries(values)) {
        if (Array.isArray(v)) for (const item of v) search.append(k, String(item));
        else search.append(k, String(v));
      }
      return search.toString();
    });
  const queryJunk = fc.oneof(
    fc.constantFrom(
      'page=-1',
      'page=1&page=2',
      'pageSize=100000',
      'page=1e9',
      'q=%ZZ',
      'q=%00',
      '__proto__[admin]=1',
      'constructor[prototype][admin]=1',
      'sort=;drop table products',
      `q=${'a'.repeat(4000)}`,
      'a[b][c][d][e][f][g][h]=1',
    ),
    fc
      .tuple(fc.constantFrom(...op.query.map((q) => q.name), 'x'), fc.constantFrom(...ODD_STRINGS))
      .map(([k, v]) => `${k}=${encodePart(v)}`),
  );
  const query =
    op.query.length > 0 ? fc.oneof(queryValid, queryValid, queryJunk) : fc.oneof(fc.constant(''), queryJunk);

  const headers = fc.record(
    Object.fromEntries(
      op.headers.map((h) => [
        h.name,
        fc.oneof(
          validArb(h.schema).map(String),
          fc.constantFrom('', ' ', 'x', 'a'.repeat(500), '../../etc', 'clave con espacios', 'ñandú-ñandú'),
        ),
      ]),
    ),
  ) as fc.Arbitrary<Record<string, string>>;

  const json = (v: unknown) => JSON.stringify(v) ?? 'null';
  const body = op.body
    ? fc.oneof(
        {
          weight: 4,
          arbitrary: validArb(op.body).map((v) => ({ payload: json(v), contentType: 'application/json' })),
        },
        {
          weight: 4,
          arbitrary: brokenArb(op.body).map((v) => ({ payload: json(v), contentType: 'application/json' })),
        },
        {
          weight: 1,
          arbitrary: junkValue.map((v) => ({ payload: json(v), contentType: 'application/json' })),
        },
        {
          weight: 2,
          arbitrary: fc
            .tuple(fc.constantFrom(...MALFORMED_JSON), fc.constantFrom(...CONTENT_TYPES))
            .map(([payload, contentType]) => ({ payload, contentType })),
        },
        {
          weight: 1,
          arbitrary: fc
            .tuple(validArb(op.body), fc.constantFrom(...CONTENT_TYPES))
            .map(([v, contentType]) => ({ payload: json(v), contentType })),
        },
      )
    : fc.oneof(
        fc.constant(undefined),
        fc.constant(undefined),
        fc.constantFrom(...MALFORMED_JSON).map((payload) => ({ payload, contentType: 'application/json' })),
      );

  return fc.record({
    who: fc.constantFrom<Who>('visitor', 'a', 'a', 'b', 'staff', 'staff'),
    params,
    query,
    headers,
    body,
  }) as fc.Arbitrary<FuzzRequest>;
}

const person = (who: Who): Person | null => (who === 'visitor' ? null : world[who]);

function urlOf(op: Operation, r: FuzzRequest) {
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => r.params[name] ?? 'x');
  return r.query ? `${path}?${r.query}` : path;
}

const describeRequest = (op: Operation, r: FuzzRequest) =>
  `${r.who} ${op.method} ${urlOf(op, r).slice(0, 160)} ${JSON.stringify(r.headers).slice(0, 80)} ${
    r.body ? `[${r.body.contentType}] ${r.body.payload.slice(0, 160)}` : ''
  }`;

/** The last fingerprint taken and the WAL position it was taken at. */
let known: { wal: string; fingerprint: Record<string, string> } | undefined;

async function fingerprintNow(): Promise<{ wal: string; fingerprint: Record<string, string> }> {
  const t0 = performance.now();
  const wal = await walPosition(world.t);
  if (known?.wal !== wal) known = { wal, fingerprint: await databaseFingerprint(world.t) };
  fpMs += performance.now() - t0;
  return known;
}

async function send(op: Operation, r: FuzzRequest): Promise<LightMyRequestResponse> {
  const who = person(r.who);
  const headers: Record<string, string> = { ...r.headers };
  if (who) headers.cookie = who.cookie;
  if (r.body?.contentType !== undefined && r.body) headers['content-type'] = r.body.contentType;
  const options: InjectOptions = {
    method: op.method as InjectOptions['method'],
    url: urlOf(op, r),
    headers,
    ...(r.body ? { payload: r.body.payload } : {}),
  };
  const before = op.method !== 'GET' ? (await fingerprintNow()).fingerprint : undefined;
  let res: LightMyRequestResponse;
  try {
    res = await world.t.app.inject(options);
  } catch (error) {
    failures.push({ request: describeRequest(op, r), status: 0, problem: `inject lanzó: ${String(error)}` });
    throw error;
  }
  sent += 1;
  statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
  check(op, r, res);
  // A rejected state-changing request must not have touched the database (402: a declined card
  // legitimately records the failed order and gives its stock back).
  if (before && res.statusCode >= 400 && res.statusCode < 500 && res.statusCode !== 402) {
    const after = (await fingerprintNow()).fingerprint;
    checkedUnchanged += 1;
    const changed = changedTables(before, after);
    if (changed.length > 0) {
      failures.push({
        request: describeRequest(op, r),
        status: res.statusCode,
        problem: `rechazada pero cambió: ${changed.join(', ')}`,
      });
    }
  }
  return res;
}

function check(op: Operation, r: FuzzRequest, res: LightMyRequestResponse) {
  if (res.statusCode >= 500) {
    failures.push({
      request: describeRequest(op, r),
      status: res.statusCode,
      problem: res.body.slice(0, 300),
    });
  } else if (res.statusCode >= 400 && op.method !== 'HEAD') {
    const problem = errorBodyProblem(res);
    if (problem) failures.push({ request: describeRequest(op, r), status: res.statusCode, problem });
  }
}

async function renewSessions() {
  for (const who of [world.a, world.b, world.staff]) await renewSession(world.t, who);
}

const seedOf = (op: Operation) => {
  let h = SEED;
  for (const c of `${op.method} ${op.path}`) h = (Math.imul(h, 31) + c.charCodeAt(0)) | 0;
  return h;
};

const report = () =>
  failures
    .slice(0, 25)
    .map((f) => `${f.status} ${f.problem}\n    ← ${f.request}`)
    .join('\n');

describe('API fuzzing (every operation of /api/openapi.json)', () => {
  it('knows the operations it fuzzes', () => {
    expect(operations.length).toBeGreaterThan(30);
    const paths = operations.map((o) => `${o.method} ${o.path}`);
    for (const must of [
      'POST /api/orders',
      'POST /api/auth/login',
      'PUT /api/account/shipping-address',
      'POST /api/orders/{number}/invoice',
      'PUT /api/cart',
      'GET /api/products',
    ])
      expect(paths).toContain(must);
  });

  it('generated requests: no 5xx, Spanish 4xx messages, rejected requests change nothing', async () => {
    for (const op of operations) {
      await renewSessions();
      const samples = fc.sample(requestArb(op), { numRuns: RUNS, seed: seedOf(op) });
      for (const r of samples) await send(op, r);
    }
    expect(sent).toBeGreaterThanOrEqual(operations.length * RUNS);
    expect(checkedUnchanged).toBeGreaterThan(100);
    expect(failures, report()).toEqual([]);
  }, 300_000);

  it('malformed JSON, wrong content types, huge and deep bodies on every operation with a body', async () => {
    const withBody = operations.filter((o) => o.body);
    expect(withBody.length).toBeGreaterThan(15);
    const huge = JSON.stringify({ items: [], x: 'a'.repeat(1024 * 1024 + 10) });
    const enormous = JSON.stringify({ x: 'a'.repeat(29 * 1024 * 1024) });
    for (const op of withBody) {
      await renewSessions();
      const base = {
        params: Object.fromEntries(op.pathParams.map((p) => [p.name, realValues(p.name)[0] ?? 'x'])),
        query: '',
        headers: {},
      };
      const who = op.path.startsWith('/api/admin/') ? 'staff' : 'a';
      for (const payload of MALFORMED_JSON) {
        const res = await send(op, { ...base, who, body: { payload, contentType: 'application/json' } });
        expect(res.statusCode, `${op.method} ${op.path} ${JSON.stringify(payload)}`).toBeGreaterThanOrEqual(
          400,
        );
      }
      for (const contentType of [
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/xml',
      ]) {
        const res = await send(op, { ...base, who, body: { payload: '{"a":1}', contentType } });
        // The CSRF hook refuses anything but JSON (415); the payment webhook, called by Openpay's
        // servers, is exempt from it and refuses the body as invalid instead.
        if (op.path === '/api/payments/openpay/webhook') expect(res.statusCode).toBeGreaterThanOrEqual(400);
        else expect(res.statusCode, `${op.method} ${op.path} ${contentType}`).toBe(415);
      }
      // Uploads (image, datasheet, HDS, certificate of analysis, catalogue import, a return's photos) allow more;
      // everything else stops at 1 MB.
      const upload = /\/(image|datasheet|hds|certificates|import|returns)$/.test(op.path);
      const big = await send(op, {
        ...base,
        who,
        body: { payload: upload ? enormous : huge, contentType: 'application/json' },
      });
      expect(big.statusCode, `${op.method} ${op.path} cuerpo sobre el límite`).toBe(413);
      for (const kind of ['array', 'object'] as const) {
        for (const depth of [1_000, 100_000]) {
          const res = await send(op, {
            ...base,
            who,
            body: { payload: deepJson(depth, kind), contentType: 'application/json' },
          });
          expect(res.statusCode, `${op.method} ${op.path} anidado ${kind} ${depth}`).toBeLessThan(500);
        }
      }
    }
    expect(failures, report()).toEqual([]);
  }, 300_000);

  it('path parameters that try to escape their segment or break decoding', async () => {
    const withParams = operations.filter((o) => o.pathParams.length > 0);
    expect(withParams.length).toBeGreaterThan(10);
    for (const op of withParams) {
      await renewSessions();
      const who = op.path.startsWith('/api/admin/') ? 'staff' : 'a';
      for (const junk of PATH_JUNK) {
        {
          const params = Object.fromEntries(op.pathParams.map((p) => [p.name, junk]));
          const body = op.body ? { payload: '{}', contentType: 'application/json' } : undefined;
          const res = await send(op, { who, params, query: '', headers: {}, ...(body ? { body } : {}) });
          // Never a file from the disk, never somebody's data.
          expect(res.body).not.toMatch(/root:x:0:0|\[extensions\]/);
        }
      }
    }
    expect(failures, report()).toEqual([]);
  }, 300_000);
});

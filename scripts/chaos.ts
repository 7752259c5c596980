/**
 * npm run test:chaos — crash consistency on PostgreSQL.
 *
 * A real server process (src/server/main.ts, sandbox card gateway, mail through a local SMTP listener)
 * takes a steady load of checkouts from a few simulated shoppers, and is killed with SIGKILL 20 times
 * and started again; then PostgreSQL itself is stopped and started under load while the server keeps
 * running (it must report 503 on /readyz during the outage and recover without a restart). Afterwards,
 * once the timers that would run later anyway have run (leases and reservations expire, the sweeper and
 * the mail worker go round), the database must hold:
 *
 *  - every order with its lines, its stock ledger rows and a payment record matching its status;
 *  - products.stock = Σ stock_movements.delta for every product (the ledger starts with the seed rows);
 *  - no sandbox charge without an order, and no money kept for an order that is not paid;
 *  - every paid order's confirmation mail sent (received by the SMTP listener);
 *  - what the shoppers were told (201 paid, 402 declined, cancellation done) is what the database says.
 *
 * Then a crash in the middle of 'Cancelar pedido' (issue 22): five paid orders are cancelled while the harness
 * holds row locks that stop each cancellation after its claim — three after the refund, before the commit; two
 * before the refund — and the server is killed with SIGKILL there. Each order must read 'Cancelación en proceso'
 * at once (before and after the crash), refuse 'Solicitar factura' throughout, and end cancelled and refunded by
 * the restarted server's own sweeper within CHAOS_CANCEL_DEADLINE_S (default 30) seconds, with no invoice.
 *
 * Then a crash between a payout's request and its record (issue 33): Openpay has paid the buyer's CLABE, the shop
 * has not written it; the restarted server finds the payout by its order_id and records it once.
 *
 * Bounded: 20 kills, at most CHAOS_TIME_LIMIT_S (default 600; beside the browser journeys in CI a restart waits for the CPU they use) seconds in all; traffic only to 127.0.0.1.
 * PostgreSQL: by default the run makes its own throw-away Debian cluster (`pg_createcluster`, on the next free port,
 * trust authentication on 127.0.0.1, fsync on as any cluster) and drops it at the end, so the outage it causes
 * stops nobody else's database — the API tests of `npm test` keep running on the machine's cluster beside it
 * (decision 039). Without Debian's cluster tools, or with CHAOS_DATABASE_URL, it uses that server and stops the
 * cluster CHAOS_PG_CLUSTER names for the outage, and leaves it running. Environment:
 *   CHAOS_DATABASE_URL  admin URL of an existing PostgreSQL server to use instead of an own cluster (e.g.
 *                       postgres://postgres@127.0.0.1:5432/postgres); a fresh database is created on it and dropped
 *   CHAOS_PG_CLUSTER    with CHAOS_DATABASE_URL: the Debian cluster to stop/start (default main; version from
 *                       /etc/postgresql)
 *   CHAOS_PG_RESTART    0 skips the database outage (for a shared server other people are using)
 *   CHAOS_PORT          server port (default 3180); CHAOS_SMTP_PORT (default 3181)
 *   CHAOS_KILLS         default 20; CHAOS_SEED for the random choices
 *   CHAOS_DB_PREFIX     prefix of the throw-away database's name (default tienda: tienda_chaos_…)
 *   CHAOS_SPEI_ORDERS   SPEI orders placed during the kills (default 8); most are paid through the sandbox's
 *                       'Simular pago recibido' (the same webhook handler Openpay's delivery runs) while the server
 *                       is being killed, the rest expire at the end: none paid twice, none lost, ledger balanced
 *   CHAOS_SCENARIO      invoice-stamp: instead of the checkout load, the invoice scenario below
 *
 * CHAOS_SCENARIO=invoice-stamp (decision 015): the server dies (SIGKILL, failpoint CFDI_FAILPOINT=after-stamp)
 * right after the sandbox PAC stamped an invoice and before the shop saved it, CHAOS_KILLS times over
 * (default 3) on as many orders; after each restart the shopper asks again and must get the CFDI stamped
 * before the crash (same UUID), with exactly one stamp at the PAC and one issued invoice per order.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createWriteStream, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { createSession } from '../src/server/auth/session.ts';
import { seedDemoCatalogue } from '../src/server/catalog/demo/seed.ts';
import { sweepOnce } from '../src/server/checkout/sweeper.ts';
import { type Database, type Db, openDatabase } from '../src/server/db/client.ts';
import { shippingAddresses, users } from '../src/server/db/schema.ts';
import type { OrderContext } from '../src/server/orders/context.ts';
import { SandboxGateway } from '../src/server/payments/sandbox.ts';
import { clabeCheckDigit } from '../src/shared/clabe.ts';
import { createTestOrder } from '../tests/server/support/invoice-orders.ts';
import {
  pgctl as controlCluster,
  dropCluster,
  hasClusterTools,
  makeCluster,
  pgVersion,
} from './pg-cluster.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const env = process.env;
const dbName = `${env.CHAOS_DB_PREFIX ?? 'tienda'}_chaos_${Date.now()}_${process.pid}`;

/**
 * The run's own throw-away cluster (scripts/pg-cluster.ts), unless CHAOS_DATABASE_URL names a server or Debian's
 * cluster tools are missing: made before anything else, dropped by cleanup(). Its name is the database's.
 */
const OWN_CLUSTER = env.CHAOS_DATABASE_URL || !hasClusterTools() ? null : dbName;
let ownClusterMade = false;
function makeOwnCluster(name: string): string {
  const url = makeCluster(name);
  ownClusterMade = true;
  return url;
}
function dropOwnCluster() {
  if (OWN_CLUSTER && ownClusterMade && dropCluster(OWN_CLUSTER)) ownClusterMade = false;
}
const ADMIN_URL = OWN_CLUSTER
  ? makeOwnCluster(OWN_CLUSTER)
  : (env.CHAOS_DATABASE_URL ?? env.PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
const PORT = Number(env.CHAOS_PORT ?? 3180);
const SMTP_PORT = Number(env.CHAOS_SMTP_PORT ?? 3181);
const KILLS = Number(env.CHAOS_KILLS ?? 20);
const TIME_LIMIT_MS = Number(env.CHAOS_TIME_LIMIT_S ?? 600) * 1000;
const CANCEL_DEADLINE_MS = Number(env.CHAOS_CANCEL_DEADLINE_S ?? 30) * 1000;
const PG_RESTART = env.CHAOS_PG_RESTART !== '0';
const PG_CLUSTER = OWN_CLUSTER ?? env.CHAOS_PG_CLUSTER ?? 'main';
const BUYERS = 6;
const BASE = `http://127.0.0.1:${PORT}`;
const LOG_DIR = resolve(root, 'test-results/chaos');

const started = Date.now();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
const say = (line: string) => console.log(`[caos ${elapsed().padStart(7)}] ${line}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// A small seeded PRNG (mulberry32) so a run can be repeated.
let seed = Number(env.CHAOS_SEED ?? 20_250_610) >>> 0;
function random() {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let x = seed;
  x = Math.imul(x ^ (x >>> 15), x | 1);
  x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
  return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
}
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
const between = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));

// ---- The database -------------------------------------------------------------------------------

const dbUrl = (() => {
  const u = new URL(ADMIN_URL);
  u.pathname = `/${dbName}`;
  return u.toString();
})();

async function admin(query: string) {
  const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query(query);
  } finally {
    await client.end();
  }
}

type Shopper = { id: number; email: string; cookie: string };

/** An account with a shipping address and a session: a buyer, or a member of the staff. */
async function newAccount(db: Db, i: number, role: 'customer' | 'staff' = 'customer'): Promise<Shopper> {
  const email = `caos.${i}.${randomUUID().slice(0, 6)}@example.com`;
  const [user] = await db
    .insert(users)
    .values({
      email,
      passwordHash: 'x',
      nombre: role === 'staff' ? 'Personal' : 'Comprador',
      apellidoPat: 'Caos',
      apellidoMat: String.fromCharCode(65 + (i % 26)),
      telefono: '3312345678',
      role,
      ...(role === 'staff' ? { staffRole: 'administrador' } : {}),
    })
    .returning({ id: users.id });
  await db.insert(shippingAddresses).values({
    userId: user!.id,
    nombreEnvio: 'Comprador de Caos',
    telefonoEnvio: '3312345678',
    cpEnvio: '44100',
    calleEnvio: 'Avenida Vallarta',
    numExtEnvio: '100',
    numIntEnvio: '',
    coloniaEnvio: 'Americana',
    municipioEnvio: 'Guadalajara',
    ciudadEnvio: 'Guadalajara',
    estadoEnvio: 'Jalisco',
    paisEnvio: 'México',
  });
  // Staff sessions start past the second factor (decision 064), as after the password and the TOTP code.
  const session = await createSession(
    db,
    user!.id,
    {},
    role === 'staff' ? { secondFactorAt: new Date() } : {},
  );
  return { id: user!.id, email, cookie: `sid=${session.token}` };
}

async function prepare(database: Database) {
  await database.migrate();
  await seedDemoCatalogue(database.db, { products: 40 });
  const db = database.db;
  // Eight products with little stock, so buyers compete and some checkouts find it sold out.
  const products = (
    await db.execute<{ code: string; stock: number; price_cents: number }>(
      sql`select code, stock, price_cents from products where active order by price_cents limit 8`,
    )
  ).rows;
  for (const p of products) {
    const target = 150;
    await db.execute(sql`update products set stock = ${target} where code = ${p.code}`);
    await db.execute(sql`insert into stock_movements (product_code, delta, reason, note)
      values (${p.code}, ${target - Number(p.stock)}, 'adjustment', 'caos: existencia inicial')`);
  }
  // The SPEI orders buy a ninth product with ample stock: their checks are about webhooks across kills, and
  // an order refused because the card buyers sold the eight out first (409) is not what they look at.
  const [speiProduct] = (
    await db.execute<{ code: string; stock: number }>(
      sql`select code, stock from products where active order by price_cents offset 8 limit 1`,
    )
  ).rows;
  await db.execute(sql`update products set stock = 1000 where code = ${speiProduct!.code}`);
  await db.execute(sql`insert into stock_movements (product_code, delta, reason, note)
    values (${speiProduct!.code}, ${1000 - Number(speiProduct!.stock)}, 'adjustment', 'caos: existencia inicial')`);
  // Card buyers' accounts, then one account per SPEI order: an account holds at most CHECKOUT_MAX_PENDING_ORDERS (2)
  // unpaid orders, and a SPEI order waits for its transfer (some never get one), so SPEI orders sharing accounts
  // would be refused (409 too_many_pending) whenever a payment lags behind a kill — a refusal, not a lost answer.
  const shoppers: Shopper[] = [];
  for (let i = 0; i < BUYERS * 2 - 2 + SPEI_ORDERS; i++) shoppers.push(await newAccount(db, i));
  return { codes: products.map((p) => p.code), speiCodes: [speiProduct!.code], shoppers };
}

// ---- The SMTP listener -------------------------------------------------------------------------

type Received = { to: string[]; subject: string };
const received: Received[] = [];

function decodeSubject(raw: string): string {
  const header = /^Subject:(.*(?:\r?\n[ \t].*)*)/im.exec(raw)?.[1] ?? '';
  return header
    .replace(/\r?\n[ \t]/g, ' ')
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_, kind: string, text: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(
            text
              .replace(/_/g, ' ')
              .replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
            'latin1',
          ).toString('utf8'),
    )
    .trim();
}

async function startSmtp(): Promise<SMTPServer> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    // No reverse DNS of 127.0.0.1: without a resolver every connection would wait for its timeout.
    disableReverseLookup: true,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), subject: decodeSubject(raw) });
        callback();
      });
    },
  });
  // A shop process killed in the middle of a delivery resets its SMTP connection (ECONNRESET): that is the
  // test working, not a failure of the harness; the mail is delivered again by the restarted process.
  server.on('error', () => {});
  await new Promise<void>((r, reject) => {
    server.server.once('error', reject);
    server.listen(SMTP_PORT, '127.0.0.1', () => r());
  });
  return server;
}

// ---- The server process ------------------------------------------------------------------------

let child: ChildProcess | undefined;
let serverLog: ReturnType<typeof createWriteStream>;
let starts = 0;
/** Resolves while the server answers; replaced by a pending promise while it is down. */
let up: Promise<void> = Promise.resolve();
let markUp: () => void = () => {};

async function readyz(timeoutMs = 2000): Promise<number> {
  try {
    const res = await fetch(`${BASE}/readyz`, { signal: AbortSignal.timeout(timeoutMs) });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 0;
  }
}

async function startServer(extraEnv: Record<string, string> = {}) {
  // Something else answering on the port (a server left by an interrupted run) would take the load and the kills
  // would hit nobody: refuse instead of measuring the wrong process.
  if ((!child || child.exitCode !== null || child.signalCode !== null) && (await readyz(1000)) !== 0)
    throw new Error(`otro proceso ya responde en ${BASE}: deténgalo o use otro CHAOS_PORT`);
  starts += 1;
  const proc = spawn(
    process.execPath,
    ['--import', 'tsx', '--import', './scripts/quick-start.mjs', 'src/server/main.ts'],
    {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: 'development',
        PORT: String(PORT),
        HOST: '127.0.0.1',
        PUBLIC_URL: BASE,
        DATABASE_URL: dbUrl,
        SEED_DEMO: 'false',
        LOG_LEVEL: 'warn',
        SMTP_URL: `smtp://127.0.0.1:${SMTP_PORT}`,
        PAYMENT_GATEWAY: 'sandbox',
        CLIENT_DIR: 'test-results/chaos/no-client',
        WEB_CONCURRENCY: '1',
        ...extraEnv,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  proc.stdout?.pipe(serverLog, { end: false });
  proc.stderr?.pipe(serverLog, { end: false });
  child = proc;
  const deadline = Date.now() + 90_000;
  while ((await readyz()) !== 200) {
    if (proc.exitCode !== null)
      throw new Error(`el servidor terminó al iniciar (código ${proc.exitCode}); ver ${LOG_DIR}/server.log`);
    if (Date.now() > deadline) throw new Error('el servidor no estuvo listo en 90 s');
    await sleep(100);
  }
  markUp();
}

async function killServer() {
  const proc = child;
  // A process that died by a signal (the invoice failpoint kills itself) has signalCode set, exitCode null.
  if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
  up = new Promise<void>((r) => {
    markUp = r;
  });
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  proc.kill('SIGKILL');
  await exited;
}

// ---- The shoppers ------------------------------------------------------------------------------

type Attempt = {
  key: string;
  shopper: Shopper;
  body: { items: { code: string; quantity: number }[]; cardToken: string; deviceSessionId: string };
  card: string;
  /** The last definite answer the shopper saw, if any. */
  status?: number;
  number?: number;
};

const attempts: Attempt[] = [];
const cancels: { number: number; shopper: Shopper; status?: number }[] = [];
const seen = new Map<string, number>();
let loadRunning = true;
let networkErrors = 0;

const count = (status: number, json: unknown) => {
  const code = (json as { error?: { code?: string } } | null)?.error?.code;
  const label = code ? `${status} ${code}` : String(status);
  seen.set(label, (seen.get(label) ?? 0) + 1);
};

async function call(
  path: string,
  init: RequestInit & { shopper?: Shopper; key?: string },
): Promise<Response> {
  const headers: Record<string, string> = init.body ? { 'content-type': 'application/json' } : {};
  if (init.shopper) headers.cookie = init.shopper.cookie;
  if (init.key) headers['idempotency-key'] = init.key;
  return fetch(`${BASE}${path}`, { ...init, headers, signal: AbortSignal.timeout(20_000) });
}

/** Tries a request a few times across crashes; undefined when it never got a definite answer. */
async function withRetries(
  send: () => Promise<Response>,
): Promise<{ status: number; json: unknown } | undefined> {
  for (let i = 0; i < 4 && loadRunning; i++) {
    await up;
    try {
      const res = await send();
      const json = await res.json().catch(() => null);
      count(res.status, json);
      // Busy (the key's lease is held by a request that died with the process) or the database is
      // down: try again later; the final phase resumes what is still open.
      if (
        (res.status === 409 &&
          (json as { error?: { code?: string } })?.error?.code === 'idempotency_in_progress') ||
        res.status >= 500
      ) {
        await sleep(300);
        continue;
      }
      return { status: res.status, json };
    } catch {
      networkErrors += 1;
      await sleep(100);
    }
  }
  return undefined;
}

async function cardToken(card: string): Promise<string | undefined> {
  const answer = await withRetries(() =>
    call('/api/payments/sandbox/tokens', {
      method: 'POST',
      body: JSON.stringify({
        holder_name: 'Comprador Caos',
        card_number: card,
        expiration_month: '12',
        expiration_year: String((new Date().getFullYear() + 3) % 100),
        cvv2: '123',
      }),
    }),
  );
  return answer?.status === 201 ? (answer.json as { id: string }).id : undefined;
}

async function checkout(a: Attempt) {
  const answer = await withRetries(() =>
    call('/api/orders', { method: 'POST', shopper: a.shopper, key: a.key, body: JSON.stringify(a.body) }),
  );
  if (!answer) return;
  a.status = answer.status;
  const number = (answer.json as { number?: number })?.number;
  if (typeof number === 'number') a.number = number;
}

async function buyer(index: number, codes: string[], shoppers: Shopper[]) {
  while (loadRunning) {
    const shopper = shoppers[(index + attempts.length) % shoppers.length]!;
    const card = pick([
      '4111111111111111',
      '4111111111111111',
      '4111111111111111',
      '5555555555554444',
      '4000000000000002',
      '4000000000000044',
    ]);
    const token = await cardToken(card);
    if (!token) continue;
    const chosen = [...new Set([pick(codes), pick(codes)])];
    const a: Attempt = {
      key: `caos-${randomUUID()}`,
      shopper,
      card,
      body: {
        items: chosen.map((code) => ({ code, quantity: between(1, 3) })),
        cardToken: token,
        deviceSessionId: `caos-${index}`,
      },
    };
    attempts.push(a);
    await checkout(a);
    // A shopper's pace, not a flood: a few hundred orders over the run keep the mail backlog small.
    await sleep(between(700, 1800));
    if (a.status === 201 && a.number && random() < 0.2) {
      const c: (typeof cancels)[number] = { number: a.number, shopper };
      cancels.push(c);
      const answer = await withRetries(() =>
        call(`/api/orders/${a.number}/cancel`, { method: 'POST', shopper }),
      );
      if (answer) c.status = answer.status;
    }
  }
}

// ---- SPEI orders whose payment webhooks arrive while the server is killed (issue 21) ------------------------

const SPEI_ORDERS = Number(env.CHAOS_SPEI_ORDERS ?? 8);
type Spei = {
  key: string;
  shopper: Shopper;
  body: { items: { code: string; quantity: number }[]; paymentMethod: 'spei' };
  /** The answer to the order (202 awaiting payment). */
  status?: number;
  number?: number;
  /** Whether the buyer pays it, and the simulator's answers to 'Simular pago recibido' (each delivery). */
  pays: boolean;
  payAnswers: number[];
};
const speis: Spei[] = [];

/** The charge of a SPEI order as the shop recorded it (the reference the buyer transfers to). */
async function speiCharge(db: Db, number: number): Promise<string | undefined> {
  // The harness reads the database too: during the PostgreSQL outage it waits for it like the shop does.
  const until = Date.now() + 90_000;
  for (;;) {
    try {
      const [row] = (
        await db.execute<{ charge_id: string | null }>(
          sql`select charge_id from payments where order_number = ${number} and charge_id is not null order by id desc limit 1`,
        )
      ).rows;
      return row?.charge_id ?? undefined;
    } catch (error) {
      if (Date.now() > until) throw error;
      await sleep(250);
    }
  }
}

/** The buyer pays by SPEI: 'Simular pago recibido' fires the webhook; sometimes the bank delivers it twice. */
async function payBySpei(db: Db, s: Spei) {
  if (!s.number) return;
  const charge = await speiCharge(db, s.number);
  if (!charge) return;
  const deliveries = random() < 0.4 ? 2 : 1;
  for (let i = 0; i < deliveries; i++) {
    const answer = await withRetries(() =>
      fetch(`${BASE}/api/payments/sandbox/charges/${charge}/pay`, {
        method: 'POST',
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(20_000),
      }),
    );
    if (answer) s.payAnswers.push(answer.status);
  }
}

/** A few SPEI orders during the kills: placed, then (most of them) paid a moment later. */
async function speiBuyer(db: Db, codes: string[], shoppers: Shopper[]) {
  for (let i = 0; i < SPEI_ORDERS && loadRunning; i++) {
    const s: Spei = {
      key: `caos-spei-${randomUUID()}`,
      shopper: shoppers[i % shoppers.length]!,
      body: { items: [{ code: pick(codes), quantity: between(1, 2) }], paymentMethod: 'spei' },
      pays: i % 4 !== 3,
      payAnswers: [],
    };
    speis.push(s);
    await placeSpei(s);
    await sleep(between(300, 1200));
    if (s.pays) await payBySpei(db, s);
  }
}

async function placeSpei(s: Spei) {
  const answer = await withRetries(() =>
    call('/api/orders', { method: 'POST', shopper: s.shopper, key: s.key, body: JSON.stringify(s.body) }),
  );
  if (!answer) return;
  s.status = answer.status;
  const number = (answer.json as { number?: number })?.number;
  if (typeof number === 'number') s.number = number;
}

// ---- PostgreSQL outage --------------------------------------------------------------------------

const pgctl = (action: 'start' | 'stop') => controlCluster(PG_CLUSTER, action);
let pgStopped = false;

async function databaseOutage(): Promise<string[]> {
  const problems: string[] = [];
  const pid = child?.pid;
  say(`PostgreSQL (${pgVersion()}/${PG_CLUSTER}) se detiene con la tienda en marcha`);
  pgStopped = true;
  pgctl('stop');
  let saw503 = false;
  const until = Date.now() + 20_000;
  while (Date.now() < until) {
    const status = await readyz(3000);
    if (status === 503) {
      saw503 = true;
      break;
    }
    await sleep(100);
  }
  if (!saw503) problems.push('/readyz no respondió 503 con la base de datos detenida');
  await sleep(1000);
  say('PostgreSQL arranca de nuevo');
  pgctl('start');
  pgStopped = false;
  const back = Date.now() + 60_000;
  let ready = false;
  while (Date.now() < back) {
    if ((await readyz(3000)) === 200) {
      ready = true;
      break;
    }
    await sleep(200);
  }
  if (!ready) problems.push('/readyz no volvió a 200 en 60 s tras arrancar PostgreSQL');
  if (child?.pid !== pid || child?.exitCode !== null)
    problems.push('el servidor se reinició o terminó durante la caída de la base de datos');
  // A purchase goes through again, on the same process.
  const shopper = { ...attempts[0]!.shopper };
  const token = await cardToken('4111111111111111');
  const probe: Attempt = {
    key: `caos-${randomUUID()}`,
    shopper,
    card: '4111111111111111',
    body: {
      items: [{ code: attempts[0]!.body.items[0]!.code, quantity: 1 }],
      cardToken: token ?? 'x',
      deviceSessionId: 'caos-pg',
    },
  };
  attempts.push(probe);
  await checkout(probe);
  if (probe.status !== 201 && probe.status !== 409)
    problems.push(`tras la caída, una compra respondió ${probe.status ?? 'nada'} en lugar de 201`);
  say(`la tienda siguió viva (pid ${pid}) y reportó 503 durante la caída: ${saw503 ? 'sí' : 'NO'}`);
  return problems;
}

// ---- A crash in the middle of a cancellation (issue 22) ------------------------------------------

const CANCELLING = 'Cancelación en proceso';
const INVOICE_FORM = {
  nombreFiscal: 'Laboratorios Químicos del Bajío',
  rfc: 'LQB150101AB1',
  regimenFiscal: '601',
  usoCfdi: 'G03',
  formaPago: '04',
  cp: '44100',
};

async function json(path: string, init: RequestInit & { shopper?: Shopper; key?: string } = {}) {
  const res = await call(path, init);
  return { status: res.status, body: (await res.json().catch(() => null)) as Record<string, unknown> | null };
}

/** The shopper's history as the page shows it: number → status label. */
async function labels(shopper: Shopper): Promise<Map<number, string>> {
  const { body } = await json('/api/orders', { shopper });
  const list = (body?.orders ?? []) as { number: number; statusLabel: string }[];
  return new Map(list.map((o) => [o.number, o.statusLabel]));
}

/** 'Solicitar factura' for each order; answers the orders for which an invoice was issued (must be none). */
async function tryInvoices(shopper: Shopper, numbers: number[]): Promise<number[]> {
  const issued: number[] = [];
  for (const number of numbers) {
    try {
      const { status } = await json(`/api/orders/${number}/invoice`, {
        method: 'POST',
        shopper,
        body: JSON.stringify(INVOICE_FORM),
      });
      if (status === 201) issued.push(number);
    } catch {
      // the server is down at that moment: nothing issued
    }
  }
  return issued;
}

async function crashMidCancellation(db: Db, shopper: Shopper, code: string): Promise<string[]> {
  const problems: string[] = [];
  const numbers: number[] = [];
  await db.execute(sql`update products set stock = stock + 5 where code = ${code}`);
  await db.execute(sql`insert into stock_movements (product_code, delta, reason, note)
    values (${code}, 5, 'adjustment', 'caos: para la cancelación interrumpida')`);
  for (let i = 0; i < 5; i++) {
    const token = await json('/api/payments/sandbox/tokens', {
      method: 'POST',
      body: JSON.stringify({
        holder_name: 'Comprador Caos',
        card_number: '4111111111111111',
        expiration_month: '12',
        expiration_year: String((new Date().getFullYear() + 3) % 100),
        cvv2: '123',
      }),
    });
    const placed = await json('/api/orders', {
      method: 'POST',
      shopper,
      key: `caos-cancel-${randomUUID()}`,
      body: JSON.stringify({
        items: [{ code, quantity: 1 }],
        cardToken: (token.body as { id: string }).id,
        deviceSessionId: 'caos-cancel',
      }),
    });
    if (placed.status !== 201) return [`compra para la cancelación interrumpida: ${placed.status}`];
    numbers.push((placed.body as { number: number }).number);
  }
  const afterRefund = numbers.slice(0, 3);
  const beforeRefund = numbers.slice(3);

  // The harness holds the rows each cancellation writes last: the payment (after the refund) or the charge (the
  // refund itself). Each cancellation claims, then waits there until the process is killed.
  const locks = new pg.Client({ connectionString: dbUrl });
  await locks.connect();
  await locks.query('begin');
  await locks.query('select id from payments where order_number = any($1::int[]) for update', [afterRefund]);
  await locks.query(
    `select c.id from sandbox_charges c join payments p on p.order_ref = c.order_id
      where p.order_number = any($1::int[]) for update of c`,
    [beforeRefund],
  );
  const requests = numbers.map((number) =>
    call(`/api/orders/${number}/cancel`, { method: 'POST', shopper }).catch(() => undefined),
  );
  const until = Date.now() + 20_000;
  for (;;) {
    const [row] = (
      await db.execute<{ claimed: number; waiting: number }>(sql`select
        (select count(*)::int from orders where number in ${sql.raw(`(${numbers.join(',')})`)}
           and cancelled_at is not null and status = 'paid') as claimed,
        (select count(*)::int from pg_stat_activity where datname = current_database()
           and wait_event_type = 'Lock') as waiting`)
    ).rows;
    if (Number(row!.claimed) === 5 && Number(row!.waiting) >= 5) break;
    if (Date.now() > until) {
      await locks.query('rollback');
      await locks.end();
      return [`las cancelaciones no llegaron a detenerse tras reclamar el pedido: ${JSON.stringify(row)}`];
    }
    await sleep(50);
  }

  const before = await labels(shopper);
  const notShown = numbers.filter((n) => before.get(n) !== CANCELLING);
  if (notShown.length > 0)
    problems.push(
      `pedidos en cancelación no mostrados '${CANCELLING}': ${JSON.stringify(notShown.map((n) => [n, before.get(n)]))}`,
    );
  const invoicedBefore = await tryInvoices(shopper, numbers);

  await killServer();
  const killedAt = Date.now();
  await locks.query('rollback');
  await locks.end();
  await Promise.all(requests);
  say(`SIGKILL a mitad de 5 cancelaciones (3 tras el reembolso, 2 antes); reinicio`);
  await startServer();

  const seenLabels = new Map<number, Set<string>>(numbers.map((n) => [n, new Set()]));
  const invoicedAfter: number[] = [];
  let done = false;
  while (Date.now() - killedAt < CANCEL_DEADLINE_MS) {
    const now = await labels(shopper);
    for (const n of numbers) seenLabels.get(n)!.add(now.get(n) ?? '?');
    if (numbers.every((n) => now.get(n) === 'Cancelado')) {
      done = true;
      break;
    }
    invoicedAfter.push(
      ...(await tryInvoices(
        shopper,
        numbers.filter((n) => now.get(n) !== 'Cancelado'),
      )),
    );
    await sleep(250);
  }
  const seconds = ((Date.now() - killedAt) / 1000).toFixed(1);
  const shown = [...seenLabels].map(([n, set]) => [n, [...set]]);
  if (!done)
    problems.push(
      `cancelaciones interrumpidas sin terminar ${CANCEL_DEADLINE_MS / 1000} s después del SIGKILL: ${JSON.stringify(shown)}`,
    );
  else
    say(
      `las 5 cancelaciones interrumpidas terminaron ${seconds} s después del SIGKILL; estados vistos ${JSON.stringify(shown)}`,
    );
  const badLabels = shown.filter(([, list]) =>
    (list as string[]).some((l) => l !== CANCELLING && l !== 'Cancelado'),
  );
  if (badLabels.length > 0)
    problems.push(`estados mostrados durante la cancelación interrumpida: ${JSON.stringify(badLabels)}`);
  const invoiced = [...invoicedBefore, ...invoicedAfter];
  if (invoiced.length > 0)
    problems.push(`facturas emitidas a pedidos en cancelación: ${JSON.stringify(invoiced)}`);
  const rows = (
    await db.execute<{
      number: number;
      status: string;
      payment: string;
      charge: string;
      invoices: number;
    }>(sql`
      select o.number, o.status,
        (select string_agg(p.status, ',') from payments p where p.order_number = o.number) as payment,
        (select c.status from sandbox_charges c join payments p on p.order_ref = c.order_id where p.order_number = o.number) as charge,
        (select count(*)::int from invoices i where i.order_number = o.number and i.status in ('issued', 'pending')) as invoices
      from orders o where o.number in ${sql.raw(`(${numbers.join(',')})`)}`)
  ).rows;
  const wrong = rows.filter(
    (r) =>
      r.status !== 'cancelled' ||
      r.payment !== 'refunded' ||
      r.charge !== 'refunded' ||
      Number(r.invoices) > 0,
  );
  if (wrong.length > 0)
    problems.push(`pedidos de la cancelación interrumpida mal terminados: ${JSON.stringify(wrong)}`);
  return problems;
}

/**
 * Issue 33: a crash between the payout request and its record. A SPEI order is paid, cancelled by its buyer (the
 * money is owed: Openpay refunds cards only) and the buyer gives a CLABE; staff pay it by Openpay payout while the
 * harness holds the order ledger (a SHARE lock on the table: the record's insert waits, nothing else is stopped), so
 * the request reaches Openpay — the simulator has the payout — and the server is killed before it writes what
 * Openpay answered. The restarted server's sweeper must find the payout by its order_id, record it once, and the
 * refund must end paid with exactly one payout at Openpay and the ledger's refund equal to it.
 */
async function crashMidPayout(db: Db, code: string): Promise<string[]> {
  const buyer = await newAccount(db, 900);
  const staff = await newAccount(db, 901, 'staff');
  const placed = await json('/api/orders', {
    method: 'POST',
    shopper: buyer,
    key: `caos-payout-${randomUUID()}`,
    body: JSON.stringify({ items: [{ code, quantity: 1 }], paymentMethod: 'spei' }),
  });
  if (placed.status !== 202) return [`pedido SPEI para el pago interrumpido: ${placed.status}`];
  const number = (placed.body as { number: number }).number;
  const charge = await speiCharge(db, number);
  const paid = await fetch(`${BASE}/api/payments/sandbox/charges/${charge}/pay`, {
    method: 'POST',
    headers: { accept: 'application/json' },
    signal: AbortSignal.timeout(20_000),
  });
  if (paid.status >= 300) return [`pago SPEI simulado del pedido ${number}: ${paid.status}`];
  const cancelled = await json(`/api/orders/${number}/cancel`, { method: 'POST', shopper: buyer });
  if (cancelled.status !== 200) return [`cancelación del pedido SPEI ${number}: ${cancelled.status}`];
  const first17 = '01232000000000012';
  const clabe = `${first17}${clabeCheckDigit(first17)}`;
  const account = await json(`/api/orders/${number}/refund-account`, {
    method: 'POST',
    shopper: buyer,
    body: JSON.stringify({ clabe, holderName: 'Comprador de Caos' }),
  });
  if (account.status !== 200)
    return [`CLABE del pedido ${number}: ${account.status} ${JSON.stringify(account.body)}`];
  const [refund] = (
    await db.execute<{ id: number; amount_cents: number }>(
      sql`select id, amount_cents::int as amount_cents from order_refunds where order_number = ${number} and state = 'owed'`,
    )
  ).rows;
  if (!refund) return [`el pedido SPEI ${number} cancelado no quedó con un reembolso por pagar`];

  const locks = new pg.Client({ connectionString: dbUrl });
  await locks.connect();
  await locks.query('begin');
  await locks.query('lock table order_ledger in share mode');
  const request = call(`/api/admin/refunds/${refund.id}/payout`, { method: 'POST', shopper: staff }).catch(
    () => undefined,
  );
  const until = Date.now() + 20_000;
  for (;;) {
    const [row] = (
      await db.execute<{ at_openpay: number; waiting: number }>(sql`select
        (select count(*)::int from sandbox_payouts s join order_refunds r on r.provider_ref = s.order_id
           where r.id = ${refund.id}) as at_openpay,
        (select count(*)::int from pg_stat_activity where datname = current_database()
           and wait_event_type = 'Lock') as waiting`)
    ).rows;
    if (Number(row!.at_openpay) === 1 && Number(row!.waiting) >= 1) break;
    if (Date.now() > until) {
      await locks.query('rollback');
      await locks.end();
      return [
        `el pago del reembolso no llegó a Openpay y a detenerse antes de registrarse: ${JSON.stringify(row)}`,
      ];
    }
    await sleep(50);
  }
  await killServer();
  const killedAt = Date.now();
  await locks.query('rollback');
  await locks.end();
  await request;
  say(`SIGKILL entre el pago del reembolso a la CLABE (Openpay ya lo tiene) y su registro; reinicio`);
  await startServer();

  const problems: string[] = [];
  let state = '';
  while (Date.now() - killedAt < CANCEL_DEADLINE_MS) {
    const [row] = (
      await db.execute<{ state: string }>(sql`select state from order_refunds where id = ${refund.id}`)
    ).rows;
    state = row!.state;
    if (state === 'done') break;
    await sleep(250);
  }
  const [money] = (
    await db.execute<{ payouts: number; paid_out: number; ledger: number; due: number }>(sql`select
      (select count(*)::int from sandbox_payouts s join order_refunds r on r.provider_ref = s.order_id
         where r.order_number = ${number}) as payouts,
      (select coalesce(sum(s.amount_cents), 0)::int from sandbox_payouts s join order_refunds r
         on r.provider_ref = s.order_id where r.order_number = ${number} and s.status = 'completed') as paid_out,
      (select coalesce(sum(amount_cents), 0)::int from order_ledger where order_number = ${number}
         and kind = 'refund' and method = 'payout') as ledger,
      (select count(*)::int from order_refunds where order_number = ${number} and state <> 'done') as due`)
  ).rows;
  const seconds = ((Date.now() - killedAt) / 1000).toFixed(1);
  if (state !== 'done')
    problems.push(
      `el reembolso pagado antes del SIGKILL sigue «${state}» ${CANCEL_DEADLINE_MS / 1000} s después: ${JSON.stringify(money)}`,
    );
  else if (
    money!.payouts !== 1 ||
    money!.paid_out !== refund.amount_cents ||
    money!.ledger !== refund.amount_cents ||
    money!.due !== 0
  )
    problems.push(`el pago interrumpido no cuadra (un pago, el monto, el libro): ${JSON.stringify(money)}`);
  else
    say(
      `el pago interrumpido quedó registrado ${seconds} s después del SIGKILL: 1 pago en Openpay de ${refund.amount_cents / 100} MXN = libro del pedido`,
    );
  return problems;
}

// ---- The checks ---------------------------------------------------------------------------------

async function settle(db: Db) {
  // What would happen later anyway, now: leases of requests that died expire, clients retry.
  await db.execute(
    sql`update idempotency_keys set locked_until = now() - interval '1 second' where state = 'in_progress'`,
  );
  const open = attempts.filter((a) => a.status === undefined || a.status >= 500 || a.status === 409);
  loadRunning = true;
  for (const a of open) await checkout(a);
  loadRunning = false;
  say(`reintentos finales de ${open.length} compras sin respuesta definitiva`);
  // SPEI: the buyer retries an unanswered order; a payment whose delivery never got an answer is delivered
  // again (Openpay retries its webhooks); a lost one is found by the sweeper's look-up of the charge.
  loadRunning = true;
  for (const sp of speis) {
    if (sp.status === undefined || sp.status >= 500) await placeSpei(sp);
    if (sp.pays && sp.payAnswers.length === 0) await payBySpei(db, sp);
  }
  loadRunning = false;
  // Reservations and half-done cancellations reach their deadlines; the sweeper goes round.
  await db.execute(
    sql`update orders set reserved_until = now() - interval '1 second' where status = 'pending_payment'`,
  );
  await db.execute(
    sql`update orders set cancel_lease_until = now() - interval '1 second' where cancel_lease_until is not null`,
  );
  const log = {
    trace() {},
    debug() {},
    info() {},
    warn() {},
    error: (o: unknown, m?: string) => say(`barrido: ${m ?? ''} ${JSON.stringify(o).slice(0, 200)}`),
  };
  const ctx = { db, gateway: new SandboxGateway(db), publicUrl: BASE, log } as unknown as OrderContext;
  for (let round = 0; round < 10; round++) {
    const r = await sweepOnce(ctx);
    const [left] = (
      await db.execute<{ n: number }>(sql`select count(*)::int as n from orders
      where status = 'pending_payment' or (status = 'paid' and cancelled_at is not null)`)
    ).rows;
    if (r.paid + r.released === 0 && Number(left!.n) === 0) break;
    await db.execute(
      sql`update orders set reserved_until = now() - interval '1 second' where status = 'pending_payment'`,
    );
  }
  // Mails claimed by a killed worker: their lock runs out; the running server's worker sends them.
  await db.execute(
    sql`update mail_outbox set locked_until = null, next_attempt_at = now() where status = 'pending'`,
  );
  const until = Date.now() + 100_000;
  while (Date.now() < until) {
    const [p] = (
      await db.execute<{ n: number }>(
        sql`select count(*)::int as n from mail_outbox where status = 'pending'`,
      )
    ).rows;
    if (Number(p!.n) === 0) break;
    await sleep(500);
  }
}

/** CHAOS_SABOTAGE=1: break the state on purpose before checking, to see every check fire. */
async function sabotage(db: Db) {
  say('CHAOS_SABOTAGE=1: se corrompe el estado a propósito; la revisión debe fallar');
  const [paid] = (
    await db.execute<{ number: number }>(sql`select number from orders where status = 'paid' limit 1`)
  ).rows;
  const [failed] = (
    await db.execute<{ number: number }>(
      sql`select number from orders where status = 'payment_failed' limit 1`,
    )
  ).rows;
  await db.execute(sql`update products set stock = stock + 1 where code = (select min(code) from products)`);
  await db.execute(sql`delete from order_lines where order_number = ${failed!.number}`);
  await db.execute(
    sql`update mail_outbox set status = 'pending' where dedupe_key = ${`order-paid:${paid!.number}`}`,
  );
  await db.execute(sql`update orders set status = 'paid' where number = ${failed!.number}`);
  await db.execute(sql`insert into sandbox_charges (id, order_id, token_id, amount_cents, status, description, masked_number)
    values ('trsabotaje', '999999', 'k', 100, 'completed', 'x', '411111XXXXXX1111')`);
}

async function check(db: Db, shoppers: Shopper[]): Promise<string[]> {
  const problems: string[] = [];
  const fail = (what: string, list: unknown[]) => {
    if (list.length > 0) problems.push(`${what}: ${list.length} — ${JSON.stringify(list.slice(0, 5))}`);
  };

  const orders = (
    await db.execute<{ number: number; status: string; total_cents: number; paid_at: Date | null }>(
      sql`select number, status, total_cents, paid_at from orders order by number`,
    )
  ).rows;
  fail(
    'pedidos en un estado no final tras el barrido',
    orders
      .filter((o) => !['paid', 'payment_failed', 'cancelled'].includes(o.status))
      .map((o) => [o.number, o.status]),
  );
  fail(
    'pedidos sin partidas',
    (
      await db.execute(
        sql`select number from orders o where not exists (select 1 from order_lines l where l.order_number = o.number)`,
      )
    ).rows,
  );
  // The ledger of each order: its reserve rows mirror its lines; release/cancel rows only as the status says.
  fail(
    'pedidos cuyo libro de existencias no corresponde a su estado',
    (
      await db.execute(
        sql`with l as (select order_number, product_code, sum(quantity)::int as q from order_lines group by 1, 2),
        m as (select order_number, product_code,
                coalesce(sum(delta) filter (where reason = 'order_reserve'), 0)::int as reserved,
                coalesce(sum(delta) filter (where reason = 'order_release'), 0)::int as released,
                coalesce(sum(delta) filter (where reason = 'order_cancel'), 0)::int as cancelled
              from stock_movements where order_number is not null group by 1, 2)
      select o.number, o.status, l.product_code, l.q, m.reserved, m.released, m.cancelled
      from orders o join l on l.order_number = o.number
      left join m on m.order_number = o.number and m.product_code = l.product_code
      where coalesce(m.reserved, 0) <> -l.q
         or (o.status = 'paid' and (m.released <> 0 or m.cancelled <> 0))
         or (o.status = 'payment_failed' and (m.released <> l.q or m.cancelled <> 0))
         or (o.status = 'cancelled' and o.paid_at is not null and (m.cancelled <> l.q or m.released <> 0))
         or (o.status = 'cancelled' and o.paid_at is null and (m.released <> l.q or m.cancelled <> 0))`,
      )
    ).rows,
  );
  fail(
    'movimientos de pedido que no pertenecen a ninguna partida',
    (
      await db.execute(
        sql`select m.id, m.order_number, m.product_code from stock_movements m
      where m.order_number is not null and not exists (select 1 from order_lines l
        where l.order_number = m.order_number and l.product_code = m.product_code)`,
      )
    ).rows,
  );
  fail(
    'productos con existencia distinta de la suma de su libro (o negativa)',
    (
      await db.execute(
        sql`select p.code, p.stock, coalesce(sum(m.delta), 0)::int as ledger from products p
      left join stock_movements m on m.product_code = p.code group by p.code, p.stock
      having p.stock <> coalesce(sum(m.delta), 0) or p.stock < 0`,
      )
    ).rows,
  );
  // Payments against statuses and the gateway.
  fail(
    'pedidos pagados sin un pago completado con su cargo completado por el total',
    (
      await db.execute(
        sql`select o.number from orders o where o.status = 'paid' and not exists (
      select 1 from payments p join sandbox_charges c on c.id = p.charge_id
      where p.order_number = o.number and p.status = 'completed' and c.status = 'completed'
        and c.order_id = p.order_ref and c.amount_cents = o.total_cents and p.amount_cents = o.total_cents)`,
      )
    ).rows,
  );
  fail(
    'pedidos cancelados sin pago y cargo reembolsados',
    (
      await db.execute(
        sql`select o.number from orders o where o.status = 'cancelled' and o.payment_method = 'card' and not exists (
      select 1 from payments p join sandbox_charges c on c.id = p.charge_id
      where p.order_number = o.number and p.status = 'refunded' and c.status = 'refunded')`,
      )
    ).rows,
  );
  fail(
    'pedidos fallidos cuyo último pago no dice fallido',
    (
      await db.execute(
        sql`select o.number, p.status from orders o
      join lateral (select status from payments where order_number = o.number order by id desc limit 1) p on true
      where o.status = 'payment_failed' and p.status <> 'failed'`,
      )
    ).rows,
  );
  fail(
    'pedidos sin registro de pago',
    (
      await db.execute(
        sql`select number from orders o where not exists (select 1 from payments p where p.order_number = o.number)`,
      )
    ).rows,
  );
  fail(
    'cargos del simulador sin pedido',
    (
      await db.execute(
        sql`select id, order_id from sandbox_charges c where c.order_id is null
      or not exists (select 1 from orders o where o.number::text = split_part(c.order_id, '-', 1))`,
      )
    ).rows,
  );
  fail(
    'dinero cobrado (cargo completado) de un pedido que no está pagado',
    (
      await db.execute(
        // A cancelled order whose money went back (a SPEI/cash payment paid out to the buyer's CLABE) keeps its
        // completed charge: Openpay refunds cards only.
        sql`select c.id, c.order_id, o.status from sandbox_charges c join orders o on o.number::text = split_part(c.order_id, '-', 1)
      where c.status = 'completed' and o.status <> 'paid'
        and not (o.status = 'cancelled' and (select coalesce(sum(amount_cents), 0) from order_ledger g
                 where g.order_number = o.number and g.kind = 'refund') >= c.amount_cents)`,
      )
    ).rows,
  );
  fail(
    'cargos completados cuyo pago no lo registra',
    (
      await db.execute(
        sql`select c.id from sandbox_charges c where c.status = 'completed'
      and not exists (select 1 from payments p where p.charge_id = c.id and p.status = 'completed')`,
      )
    ).rows,
  );
  // Mail: one confirmation per order that was ever paid, sent, and received by the SMTP listener.
  fail(
    'pedidos pagados sin su correo de confirmación enviado',
    (
      await db.execute(
        sql`select o.number from orders o where o.paid_at is not null and not exists (
      select 1 from mail_outbox m where m.dedupe_key = 'order-paid:' || o.number and m.status = 'sent')`,
      )
    ).rows,
  );
  const paidPerShopper = (
    await db.execute<{
      email: string;
      n: number;
    }>(sql`select u.email, count(*)::int as n from orders o join users u on u.id = o.user_id
      where o.paid_at is not null group by u.email`)
  ).rows;
  const deliveredTo = (email: string) =>
    received.filter((r) => r.to.includes(email) && r.subject === 'Compra realizada con éxito').length;
  fail(
    'compradores que recibieron menos confirmaciones que pedidos pagados',
    paidPerShopper
      .filter((s) => deliveredTo(s.email) < Number(s.n))
      .map((s) => [s.email, s.n, deliveredTo(s.email)]),
  );
  // What each shopper was told.
  const status = new Map(orders.map((o) => [Number(o.number), o.status]));
  fail(
    'compras respondidas 201 que no están pagadas (o canceladas por el comprador)',
    attempts
      .filter((a) => a.status === 201 && !['paid', 'cancelled'].includes(status.get(a.number!) ?? ''))
      .map((a) => [a.number, status.get(a.number!)]),
  );
  const failedCount = orders.filter((o) => o.status === 'payment_failed').length;
  // SPEI: every order placed is in the database; paid exactly when its transfer arrived, once; else expired.
  const speiRows = (
    await db.execute<{
      number: number;
      status: string;
      completed: number;
      expired: number;
      charge: string | null;
      refunded: boolean;
    }>(
      sql`select o.number, o.status,
        (select coalesce(sum(amount_cents), 0) from order_ledger g where g.order_number = o.number and g.kind = 'refund')
          >= o.total_cents as refunded,
        (select count(*)::int from payments p where p.order_number = o.number and p.status = 'completed') as completed,
        (select count(*)::int from payments p where p.order_number = o.number and p.status = 'expired') as expired,
        (select c.status from sandbox_charges c join payments p on p.charge_id = c.id
          where p.order_number = o.number order by p.id desc limit 1) as charge
      from orders o where o.payment_method = 'spei' order by o.number`,
    )
  ).rows;
  fail(
    'pedidos SPEI respondidos 202 que no existen',
    speis.filter((sp) => sp.number !== undefined && !speiRows.some((r) => Number(r.number) === sp.number)),
  );
  fail(
    'pedidos SPEI sin respuesta definitiva',
    speis.filter((sp) => sp.status !== 202).map((sp) => sp.status ?? 'sin respuesta'),
  );
  fail(
    'pedidos SPEI pagados más de una vez',
    speiRows.filter((r) => Number(r.completed) > 1).map((r) => r.number),
  );
  fail(
    'pedidos SPEI cuyo estado no corresponde a la transferencia (pagada ⇔ cargo completado, salvo cancelada y devuelta; si no, vencido)',
    speiRows
      .filter((r) =>
        r.charge === 'completed'
          ? !(r.status === 'paid' || (r.status === 'cancelled' && r.refunded)) || Number(r.completed) !== 1
          : r.status !== 'cancelled' || Number(r.expired) !== 1,
      )
      .map((r) => [r.number, r.status, r.charge, r.completed, r.expired]),
  );
  fail(
    'transferencias SPEI entregadas (webhook 200) cuyo pedido no está pagado',
    speis
      .filter((sp) => sp.payAnswers.includes(200) && status.get(sp.number!) !== 'paid')
      .map((sp) => [sp.number, status.get(sp.number!)]),
  );
  const speiTotals = {
    pedidosSpei: speiRows.length,
    pagadosSpei: speiRows.filter((r) => r.status === 'paid').length,
    vencidosSpei: speiRows.filter((r) => r.status === 'cancelled').length,
    entregasWebhook: speis.reduce((n, sp) => n + sp.payAnswers.length, 0),
    respuestasWebhook: speis.flatMap((sp) => sp.payAnswers).join(','),
  };
  say(`SPEI: ${JSON.stringify(speiTotals)}`);
  if (SPEI_ORDERS > 0 && speiTotals.pagadosSpei === 0) problems.push('ningún pedido SPEI pagado');
  fail(
    'compras respondidas 402 cuyo pedido no quedó fallido',
    attempts.filter(
      (a) => a.status === 402 && a.number !== undefined && status.get(a.number) !== 'payment_failed',
    ),
  );
  fail(
    'cancelaciones respondidas 200 cuyo pedido no quedó cancelado',
    cancels.filter((c) => c.status === 200 && status.get(c.number) !== 'cancelled').map((c) => c.number),
  );
  const declinedAsPaid = attempts.filter(
    (a) => a.card === '4000000000000002' && a.number !== undefined && status.get(a.number) === 'paid',
  );
  fail(
    'pedidos pagados con la tarjeta declinada',
    declinedAsPaid.map((a) => a.number),
  );

  // Every peso has its record (decision 045): what each order's ledger says was paid and given back is what the
  // gateway (the Openpay simulator's own tables) says — charges captured, card refunds, payouts executed.
  const money = (
    await db.execute<{
      number: number;
      ledger_paid: number;
      bank_paid: number;
      ledger_card: number;
      bank_card: number;
      ledger_payout: number;
      bank_payout: number;
    }>(sql`
      with bank as (
        select p.order_number as number,
          coalesce(sum(c.amount_cents) filter (where c.status in ('completed', 'refunded')), 0)::bigint as paid,
          coalesce(sum(c.refunded_cents) filter (where c.status in ('completed', 'refunded')), 0)::bigint as card
        from payments p join sandbox_charges c on c.order_id = p.order_ref group by 1),
      payouts as (
        select r.order_number as number, coalesce(sum(s.amount_cents) filter (where s.status = 'completed'), 0)::bigint as paid
        from order_refunds r join sandbox_payouts s on s.order_id = r.provider_ref group by 1),
      ledger as (
        select order_number as number,
          coalesce(sum(amount_cents) filter (where kind = 'charge'), 0)::bigint as paid,
          coalesce(sum(amount_cents) filter (where kind = 'refund' and method = 'card'), 0)::bigint as card,
          coalesce(sum(amount_cents) filter (where kind = 'refund' and method = 'payout'), 0)::bigint as payout
        from order_ledger group by 1)
      select o.number, coalesce(l.paid, 0)::int as ledger_paid, coalesce(b.paid, 0)::int as bank_paid,
        coalesce(l.card, 0)::int as ledger_card, coalesce(b.card, 0)::int as bank_card,
        coalesce(l.payout, 0)::int as ledger_payout, coalesce(y.paid, 0)::int as bank_payout
      from orders o left join ledger l on l.number = o.number left join bank b on b.number = o.number
      left join payouts y on y.number = o.number`)
  ).rows;
  const differences = money.filter(
    (m) =>
      m.ledger_paid !== m.bank_paid || m.ledger_card !== m.bank_card || m.ledger_payout !== m.bank_payout,
  );
  fail(
    'pedidos cuyo libro de dinero no coincide con Openpay (cobrado, reembolsado a tarjeta, pagado a CLABE)',
    differences,
  );
  say(
    `libro del pedido = Openpay: ${money.length} pedidos, ${money.filter((m) => m.bank_paid > 0).length} con cobro, ${differences.length} diferencias`,
  );

  const totals = {
    pedidos: orders.length,
    pagados: orders.filter((o) => o.status === 'paid').length,
    cancelados: orders.filter((o) => o.status === 'cancelled').length,
    fallidos: failedCount,
    correosRecibidos: received.length,
    correosDuplicados: paidPerShopper.reduce(
      (n, s) => n + Math.max(0, deliveredTo(s.email) - Number(s.n)),
      0,
    ),
    compradores: shoppers.length,
  };
  say(`resultado: ${JSON.stringify(totals)}`);
  if (totals.pagados === 0) problems.push('ningún pedido pagado: la carga no llegó a comprar');
  return problems;
}

// ---- The run ------------------------------------------------------------------------------------

async function main() {
  mkdirSync(LOG_DIR, { recursive: true });
  serverLog = createWriteStream(resolve(LOG_DIR, 'server.log'));
  const limit = setTimeout(() => {
    console.error(`✗ caos: se excedió el límite de ${TIME_LIMIT_MS / 1000} s`);
    void cleanup().finally(() => process.exit(1));
  }, TIME_LIMIT_MS);
  limit.unref();

  say(
    `base de datos ${dbName} en ${new URL(ADMIN_URL).host}; servidor en ${BASE}; SMTP en 127.0.0.1:${SMTP_PORT}`,
  );
  await admin(`CREATE DATABASE ${dbName}`);
  database = await openDatabase({ databaseUrl: dbUrl, maxConnections: 4 });
  const { codes, speiCodes, shoppers } = await prepare(database);
  smtp = await startSmtp();
  await startServer();
  say('servidor listo; empieza la carga');

  // Dedicated SPEI buyers, one per order: their awaited orders count toward the pending-orders limit.
  const speiShoppers = shoppers.splice(-SPEI_ORDERS, SPEI_ORDERS);
  const buyers = Array.from({ length: BUYERS }, (_, i) => buyer(i, codes, shoppers));
  buyers.push(speiBuyer(database.db, speiCodes, speiShoppers));
  for (let k = 1; k <= KILLS; k++) {
    await sleep(between(700, 2200));
    await killServer();
    const before = attempts.length;
    await startServer();
    say(`SIGKILL ${k}/${KILLS} y reinicio (compras iniciadas hasta ahora: ${before})`);
  }
  const problems: string[] = [];
  if (PG_RESTART) {
    await sleep(1000);
    problems.push(...(await databaseOutage()));
  } else {
    say('CHAOS_PG_RESTART=0: se omite la caída de PostgreSQL');
  }
  await sleep(1000);
  loadRunning = false;
  await Promise.all(buyers);
  say(
    `carga detenida: ${attempts.length} compras, respuestas ${JSON.stringify(Object.fromEntries(seen))}, ${networkErrors} errores de red`,
  );
  problems.push(...(await crashMidCancellation(database.db, shoppers.at(-1)!, codes[0]!)));
  problems.push(...(await crashMidPayout(database.db, speiCodes[0]!)));

  // One more crash with nothing running, then a clean start: the state at rest is what counts.
  await killServer();
  await startServer();
  await settle(database.db);
  if (env.CHAOS_SABOTAGE === '1') await sabotage(database.db);
  problems.push(...(await check(database.db, [...shoppers, ...speiShoppers])));
  await cleanup();
  if (problems.length > 0) {
    console.error(`\n✗ caos: ${problems.length} problema(s)\n  - ${problems.join('\n  - ')}`);
    process.exit(1);
  }
  console.log(
    `\n✓ caos: ${KILLS} SIGKILL${PG_RESTART ? ' y una caída de PostgreSQL' : ''} sin pedidos a medias, existencias = libro, ningún cargo sin pedido, correos enviados (${elapsed()}, ${starts} arranques)`,
  );
  process.exit(0);
}

let database: Database | undefined;
let smtp: SMTPServer | undefined;
let cleaned = false;

async function cleanup() {
  if (cleaned) return;
  cleaned = true;
  loadRunning = false;
  if (pgStopped) {
    try {
      pgctl('start');
    } catch (error) {
      console.error(`no se pudo arrancar PostgreSQL: ${String(error)}`);
    }
  }
  if (child && child.exitCode === null) {
    const exited = new Promise<void>((r) => child!.once('exit', () => r()));
    child.kill('SIGTERM');
    await Promise.race([exited, sleep(10_000)]);
    if (child.exitCode === null) child.kill('SIGKILL');
  }
  await database?.close().catch(() => {});
  await new Promise<void>((r) => (smtp ? smtp.close(() => r()) : r()));
  if (env.CHAOS_KEEP_DB !== '1') {
    await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
    dropOwnCluster();
  }
  serverLog?.end();
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    void cleanup().finally(() => process.exit(130));
  });
}

// ---- Scenario: a crash between the PAC's stamp and the shop's save ----------------------------

async function invoiceScenario() {
  mkdirSync(LOG_DIR, { recursive: true });
  serverLog = createWriteStream(resolve(LOG_DIR, 'server.log'));
  const limit = setTimeout(() => {
    console.error(`✗ caos (facturas): se excedió el límite de ${TIME_LIMIT_MS / 1000} s`);
    void cleanup().finally(() => process.exit(1));
  }, TIME_LIMIT_MS);
  limit.unref();
  const rounds = Number(env.CHAOS_KILLS ?? 3);
  say(
    `escenario invoice-stamp: base de datos ${dbName}; servidor en ${BASE}; ${rounds} caídas tras el timbrado`,
  );
  await admin(`CREATE DATABASE ${dbName}`);
  database = await openDatabase({ databaseUrl: dbUrl, maxConnections: 4 });
  await database.migrate();
  const db = database.db;
  const [user] = await db
    .insert(users)
    .values({
      email: `caos.factura.${randomUUID().slice(0, 6)}@example.com`,
      passwordHash: 'x',
      nombre: 'Compradora',
      apellidoPat: 'Caos',
      apellidoMat: 'Factura',
      telefono: '3312345678',
    })
    .returning({ id: users.id });
  const session = await createSession(db, user!.id);
  const shopper: Shopper = { id: user!.id, email: 'caos', cookie: `sid=${session.token}` };
  smtp = await startSmtp();
  const form = JSON.stringify({
    nombreFiscal: 'Laboratorios Químicos del Bajío',
    rfc: 'LQB150101AB3',
    regimenFiscal: '601',
    usoCfdi: 'G03',
    cp: '44100',
  });
  const problems: string[] = [];
  for (let round = 1; round <= rounds; round++) {
    const number = await createTestOrder(db, user!.id);
    const stampUuids = async () =>
      (
        await db.execute<{ uuid: string }>(sql`select stamp->>'uuid' as uuid from sandbox_cfdi_stamps`)
      ).rows.map((r) => r.uuid);
    const stampsAtStart = await stampUuids();
    // 1. The server dies right after the PAC stamped.
    await startServer({ CFDI_FAILPOINT: 'after-stamp', CFDI_PENDING_STALE_MS: '1000' });
    const died = await call(`/api/orders/${number}/invoice`, { method: 'POST', body: form, shopper })
      .then((res) => `respondió ${res.status}`)
      .catch(() => 'sin respuesta');
    await killServer();
    const stampsBefore = await stampUuids();
    const crashStamps = stampsBefore.filter((u) => !stampsAtStart.includes(u));
    if (crashStamps.length !== 1)
      problems.push(
        `pedido ${number}: el PAC debía timbrar una vez antes de la caída, timbró ${crashStamps.length}`,
      );
    const stampedForOrder = crashStamps[0];
    const pending = (
      await db.execute<{ status: string; sealed: boolean }>(
        sql`select status, sealed is not null as sealed from invoices where order_number = ${number}`,
      )
    ).rows;
    if (died !== 'sin respuesta')
      problems.push(`pedido ${number}: el servidor no murió tras timbrar (${died})`);
    if (pending.length !== 1 || pending[0]?.status !== 'pending' || !pending[0]?.sealed)
      problems.push(
        `pedido ${number}: se esperaba una fila 'pending' sellada, hay ${JSON.stringify(pending)}`,
      );
    // 2. A normal server; the shopper asks again until the interrupted request counts as dead.
    await startServer({ CFDI_PENDING_STALE_MS: '1000' });
    let answer: { status: number; body: { message?: string; invoice?: { uuid?: string } } } | undefined;
    for (let i = 0; i < 40; i++) {
      const res = await call(`/api/orders/${number}/invoice`, { method: 'POST', body: form, shopper });
      const body = (await res.json()) as { message?: string; invoice?: { uuid?: string } };
      if (res.status !== 409) {
        answer = { status: res.status, body };
        break;
      }
      await sleep(250);
    }
    await killServer();
    const rows = (
      await db.execute<{ status: string; uuid: string | null }>(
        sql`select status, uuid from invoices where order_number = ${number}`,
      )
    ).rows;
    const stampedNow = (await stampUuids()).filter((u) => !stampsBefore.includes(u));
    if (answer?.status !== 201)
      problems.push(`pedido ${number}: el reintento respondió ${JSON.stringify(answer)}`);
    if (stampedNow.length !== 0)
      problems.push(`pedido ${number}: el reintento timbró otro CFDI (${stampedNow.join(', ')})`);
    if (rows.length !== 1 || rows[0]?.status !== 'issued' || rows[0]?.uuid !== stampedForOrder)
      problems.push(`pedido ${number}: facturas ${JSON.stringify(rows)}, timbre del PAC ${stampedForOrder}`);
    if (answer?.body.invoice?.uuid !== stampedForOrder)
      problems.push(
        `pedido ${number}: se informó el UUID ${answer?.body.invoice?.uuid}, el PAC timbró ${stampedForOrder}`,
      );
    say(
      `caída ${round}/${rounds} tras el timbrado del pedido ${number}: recuperado ${rows[0]?.uuid ?? '—'} (${answer?.body.message ?? '—'})`,
    );
  }
  await cleanup();
  if (problems.length > 0) {
    console.error(`\n✗ caos (facturas): ${problems.length} problema(s)\n  - ${problems.join('\n  - ')}`);
    process.exit(1);
  }
  console.log(
    `\n✓ caos (facturas): ${rounds} caídas entre el timbrado y el guardado; cada reintento recuperó el CFDI timbrado, sin timbrar otro (${elapsed()})`,
  );
  process.exit(0);
}

(env.CHAOS_SCENARIO === 'invoice-stamp' ? invoiceScenario() : main()).catch(async (error: unknown) => {
  console.error('✗ caos:', error);
  await cleanup();
  process.exit(1);
});

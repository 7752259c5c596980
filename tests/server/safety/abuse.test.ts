import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECOVERY_MAX_ATTEMPTS } from '../../../src/server/auth/recovery-code.ts';
import { failuresPerWindow, POLICIES, WINDOW_MS } from '../../../src/server/auth/throttle.ts';
import { RECOVERY_ALPHABET, RECOVERY_CODE_LENGTH } from '../../../src/shared/schemas/auth.ts';
import { PASSWORD, sessionCookie, signIn, signUp } from '../support/accounts.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import {
  changedTables,
  createWorld,
  databaseFingerprint,
  errorBodyProblem,
  type World,
} from '../support/world.ts';

/**
 * Abuse: password guessing throttled per account (and per address), recovery codes that cannot be
 * guessed within the attempt limit, cross-origin state changes refused (CSRF), body and header size
 * limits, and clients that send a request too slowly (slowloris) or not at all.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seedProducts: 3 });
}, 240_000);
afterAll(async () => {
  await t?.close();
});

let ipCounter = 0;
/** A new client address for each attempt, so only the per-account counter can stop them. */
const freshIp = () => `10.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}.7`;

describe('password guessing', () => {
  it('guessing one account from one address: after 5 wrong passwords even the right one gets 429 and no session', async () => {
    const { email } = await signUp(t.app);
    const ip = freshIp();
    for (let i = 0; i < 5; i++) {
      const res = await signIn(t.app, email, `Incorrecta#${i}A`, {}, ip);
      expect(res.statusCode).toBe(401);
    }
    const blocked = await signIn(t.app, email, PASSWORD, {}, ip);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error.message).toMatch(
      /^Demasiados intentos\. Espere \d+ segundos? y vuelva a intentarlo\.$/,
    );
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(sessionCookie(blocked)).toBeUndefined();
    // The owner elsewhere is not locked out, and another account is not affected.
    expect((await signIn(t.app, email, PASSWORD, {}, freshIp())).statusCode).toBe(200);
    const other = await signUp(t.app);
    expect((await signIn(t.app, other.email, PASSWORD, {}, ip)).statusCode).toBe(200);
  });

  it('guessing one account from many addresses is slowed: 11 failures in a row from 11 addresses meet a wait', async () => {
    const { email } = await signUp(t.app);
    for (let i = 0; i < 10; i++) {
      expect((await signIn(t.app, email, `Incorrecta#${i}A`, {}, freshIp())).statusCode).toBe(401);
    }
    expect((await signIn(t.app, email, 'Incorrecta#xA', {}, freshIp())).statusCode).toBe(429);
  });

  it('the answer for an unknown e-mail is the same as for a wrong password (no account enumeration)', async () => {
    const { email } = await signUp(t.app);
    const wrong = await signIn(t.app, email, 'Incorrecta#9A', {}, freshIp());
    const unknown = await signIn(t.app, `nadie.${Date.now()}@example.com`, 'Incorrecta#9A', {}, freshIp());
    expect(unknown.statusCode).toBe(wrong.statusCode);
    expect(unknown.json()).toEqual(wrong.json());
  });
});

describe('recovery codes', () => {
  it('the limits make guessing hopeless: ≤ 5 guesses per code, codes per account slowed to a trickle, 24^8 codes', () => {
    const space = RECOVERY_ALPHABET.length ** RECOVERY_CODE_LENGTH;
    expect(space).toBeGreaterThan(1e11);
    // Wrong codes one account can take in a 15-minute window, from any number of addresses: each waits
    // its growing delay first. (Each code also dies after 5 wrong ones, and new codes are slowed too.)
    const windowsPerYear = (365 * 24 * 3600 * 1000) / WINDOW_MS;
    const perWindow = Math.min(
      failuresPerWindow(POLICIES.recovery.account!),
      failuresPerWindow(POLICIES['recovery-request'].account!) * RECOVERY_MAX_ATTEMPTS,
    );
    expect(RECOVERY_MAX_ATTEMPTS).toBeLessThanOrEqual(5);
    const guessesPerYear = perWindow * windowsPerYear;
    // ≥ 36 bits; guessing non-stop for a year, from any number of addresses: below 1 in 100,000.
    expect(Math.log2(space)).toBeGreaterThanOrEqual(36);
    expect(guessesPerYear / space).toBeLessThan(1e-5);
  });

  it('after 5 wrong codes the right code no longer works, and the password is unchanged', async () => {
    const { email } = await signUp(t.app);
    const req = await t.app.inject({
      method: 'POST',
      url: '/api/auth/recovery',
      payload: { username: email },
    });
    expect(req.statusCode).toBe(200);
    const [mail] = (
      await t.database.db.execute<{ subject: string }>(
        sql`select subject from mail_outbox where "to" = ${email} and kind like '%recovery%' order by id desc limit 1`,
      )
    ).rows;
    const code = /([A-Z0-9]{8})\s*$/.exec(mail!.subject)?.[1];
    expect(code).toMatch(new RegExp(`^[${RECOVERY_ALPHABET}]{${RECOVERY_CODE_LENGTH}}$`));
    const wrongCode = [...code!].map((c) => (c === 'A' ? 'C' : 'A')).join('');
    for (let i = 0; i < RECOVERY_MAX_ATTEMPTS; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/recovery/reset',
        payload: { username: email, recCode: wrongCode, newPass: 'Probeta#Nueva2024' },
        remoteAddress: freshIp(),
      });
      expect(res.statusCode).toBe(400);
    }
    const right = await t.app.inject({
      method: 'POST',
      url: '/api/auth/recovery/reset',
      payload: { username: email, recCode: code, newPass: 'Probeta#Nueva2024' },
      remoteAddress: freshIp(),
    });
    expect([400, 429]).toContain(right.statusCode);
    expect((await signIn(t.app, email, PASSWORD, {}, freshIp())).statusCode).toBe(200);
  });
});

describe('cross-site request forgery', () => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld();
  }, 240_000);
  afterAll(async () => {
    await world?.t.close();
  });

  it('a state change with a foreign Origin, or as a form/text body, is refused and changes nothing', async () => {
    const { a } = world;
    const targets = [
      { method: 'POST' as const, url: `/api/orders/${a.order}/cancel` },
      { method: 'POST' as const, url: `/api/orders/${a.order}/invoice/cancel` },
      { method: 'PUT' as const, url: '/api/cart' },
      { method: 'PUT' as const, url: '/api/account/shipping-address' },
      { method: 'POST' as const, url: '/api/auth/logout' },
    ];
    const attempts: { headers: Record<string, string>; payload?: string; expected: number }[] = [
      // Another site, a sandboxed page, or another port of the same host.
      {
        headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
        payload: '{}',
        expected: 403,
      },
      { headers: { origin: 'null', 'content-type': 'application/json' }, payload: '{}', expected: 403 },
      {
        headers: { origin: 'http://127.0.0.1:9', 'content-type': 'application/json' },
        payload: '{}',
        expected: 403,
      },
      { headers: { origin: 'http://tienda.test.evil.example' }, expected: 403 },
      // What an HTML form can send without any script (no Origin header in old browsers).
      { headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'a=1', expected: 415 },
      { headers: { 'content-type': 'text/plain' }, payload: '{"items":[]}', expected: 415 },
      { headers: { 'content-type': 'multipart/form-data; boundary=x' }, payload: '--x--', expected: 415 },
    ];
    for (const target of targets) {
      for (const attempt of attempts) {
        const before = await databaseFingerprint(world.t);
        const res = await world.t.app.inject({
          ...target,
          headers: { ...attempt.headers, cookie: a.cookie },
          ...(attempt.payload !== undefined ? { payload: attempt.payload } : {}),
        });
        const label = `${target.method} ${target.url} ${JSON.stringify(attempt.headers)}`;
        expect(res.statusCode, label).toBe(attempt.expected);
        expect(errorBodyProblem(res), label).toBeNull();
        expect(changedTables(before, await databaseFingerprint(world.t)), label).toEqual([]);
      }
    }
    // The shopper is still signed in and the order still paid.
    const order = await world.t.app.inject({ url: `/api/orders/${a.order}`, headers: { cookie: a.cookie } });
    expect(order.json().status).toBe('paid');
  });

  it('the same request from the shop’s own origin goes through (positive control)', async () => {
    const res = await world.t.app.inject({
      method: 'PUT',
      url: '/api/cart',
      headers: { origin: 'http://tienda.test', cookie: world.b.cookie, 'content-type': 'application/json' },
      payload: JSON.stringify({ items: [] }),
    });
    expect(res.statusCode).toBe(200);
  });
});

describe('size limits', () => {
  it('a body over 1 MB answers 413 in Spanish', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/cart/quote',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ items: [], pad: 'x'.repeat(1024 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().error.message).toBe('La solicitud es demasiado grande');
  });

  it('headers over 16 KB answer 431 in Spanish, and the server keeps serving', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const answer = await rawExchange(
      port,
      `GET /api/groups HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: sid=${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(answer.text).toMatch(/^HTTP\/1\.1 431 /);
    expect(answer.text).toContain('Los encabezados de la solicitud son demasiado grandes');
    const ok = await fetch(`${address}/api/groups`);
    expect(ok.status).toBe(200);
  });
});

describe('request smuggling', () => {
  it('ambiguous message lengths (Content-Length with Transfer-Encoding, two lengths) are refused with 400', async () => {
    if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const body = '{"items":[]}';
    for (const head of [
      `Content-Length: ${body.length}\r\nTransfer-Encoding: chunked`,
      `Content-Length: ${body.length}\r\nContent-Length: 3`,
      'Transfer-Encoding: chunked\r\nTransfer-Encoding: identity',
      'Transfer-Encoding: xchunked',
    ]) {
      const answer = await rawExchange(
        port,
        `POST /api/cart/quote HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${head}\r\n\r\n${body}`,
      );
      expect(answer.text, head).toMatch(/^HTTP\/1\.1 400 /);
    }
  });
});

describe('slow clients', () => {
  it('the shipped server closes requests that take longer than 30 s (Node checks requestTimeout)', () => {
    const server = t.app.server;
    // connectionTimeout: an idle socket (nothing received) is closed after 30 s.
    expect(server.timeout).toBe(30_000);
    // requestTimeout: the whole request — headers and body — must arrive within 30 s, however
    // steadily it trickles in; this is what stops a slowloris that keeps the socket busy.
    expect(server.requestTimeout).toBe(30_000);
    expect(server.requestTimeout).toBeGreaterThan(0);
    // Slow headers: Node's default headersTimeout is 60 s, longer than the documented 30 s.
    expect(server.headersTimeout).toBeLessThanOrEqual(30_000);
    // Node enforces both only when it checks its connections: every 30 s by default, so a request could
    // live 30 s past its limit. Checked every second, the cut comes within 31 s.
    const checking = (server as unknown as { connectionsCheckingInterval: number })
      .connectionsCheckingInterval;
    expect(checking).toBeLessThanOrEqual(1_000);
  });

  let slow: TestApp;
  let port: number;
  beforeAll(async () => {
    slow = await createTestApp({});
    // The same server, its clocks scaled down so the test takes seconds instead of a minute.
    const server = slow.app.server;
    server.requestTimeout = 1_500;
    server.headersTimeout = 1_000;
    server.timeout = 2_000;
    (server as unknown as { connectionsCheckingInterval: number }).connectionsCheckingInterval = 250;
    await slow.app.listen({ port: 0, host: '127.0.0.1' });
    port = (slow.app.server.address() as AddressInfo).port;
  }, 240_000);
  afterAll(async () => {
    await slow?.close();
  });

  it('headers sent a byte at a time (slowloris) are cut off with 408 long before they end', async () => {
    const request = `GET /api/groups HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Relleno: ${'a'.repeat(200)}\r\n\r\n`;
    const result = await trickle(port, request, 50, 15_000);
    expect(result.closedBeforeEnd).toBe(true);
    expect(result.text).toMatch(/^HTTP\/1\.1 408 /);
    expect(result.text).toContain('La solicitud tardó demasiado en llegar');
  }, 30_000);

  it('a body sent a byte at a time is cut off too', async () => {
    const body = JSON.stringify({ items: [{ code: 'X', quantity: 1 }], pad: 'a'.repeat(200) });
    const request = `POST /api/cart/quote HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const result = await trickle(port, request + body, 50, 15_000, request.length);
    expect(result.closedBeforeEnd).toBe(true);
  }, 30_000);

  it('a connection that sends nothing is closed', async () => {
    const result = await trickle(port, '', 50, 15_000);
    expect(result.closedBeforeEnd).toBe(true);
  }, 30_000);

  it('a normal request on the same server is still answered (positive control)', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/api/groups`);
    expect(res.status).toBe(200);
  });
});

/** Sends `text` at once and resolves with everything the server answers until it closes. */
function rawExchange(port: number, text: string): Promise<{ text: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.setTimeout(10_000, () => socket.destroy(new Error('sin respuesta en 10 s')));
    socket.on('data', (d) => {
      received += d.toString('utf8');
    });
    socket.on('error', (e) => (received ? resolve({ text: received }) : reject(e)));
    socket.on('close', () => resolve({ text: received }));
    socket.write(text);
  });
}

/**
 * Sends `text` one byte every `everyMs` (the first `burst` bytes at once) and reports whether the
 * server closed the connection before the last byte was sent (for an empty `text`: before `limitMs`).
 */
function trickle(
  port: number,
  text: string,
  everyMs: number,
  limitMs: number,
  burst = 0,
): Promise<{ closedBeforeEnd: boolean; text: string }> {
  return new Promise((resolve) => {
    const socket: Socket = connect(port, '127.0.0.1');
    let received = '';
    let index = 0;
    let done = false;
    const finish = (closedBeforeEnd: boolean) => {
      if (done) return;
      done = true;
      clearInterval(timer);
      clearTimeout(giveUp);
      socket.destroy();
      resolve({ closedBeforeEnd, text: received });
    };
    // Not before the connection is made: the burst would then reset `index` and send the first bytes twice
    // (a connect slower than `everyMs`, on a loaded machine, made "GGET /api/…", answered 400).
    const timer = setInterval(() => {
      if (index < text.length && socket.writable && !socket.connecting) socket.write(text[index++]!);
    }, everyMs);
    const giveUp = setTimeout(() => finish(false), limitMs);
    socket.on('connect', () => {
      socket.write(text.slice(0, burst));
      index = burst;
    });
    socket.on('data', (d) => {
      received += d.toString('utf8');
    });
    socket.on('error', () => {});
    socket.on('close', () => finish(text.length === 0 || index < text.length));
  });
}

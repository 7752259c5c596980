import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type CheckoutTestApp, createCheckoutApp } from '../../tests/server/support/checkout.ts';
import { openTestDatabase } from '../../tests/server/support/test-db.ts';
import type { Database } from './db/client.ts';
import { JobLocks } from './db/lease.ts';
import { mailOutbox } from './db/schema.ts';
import { JOBS, JobRegistry } from './jobs.ts';
import { enqueueMail } from './mail/outbox.ts';

/**
 * Issue 38: one home for the background jobs. buildApp starts none (tests and commands run without timers), main.ts
 * starts them; a job never overlaps itself, one process at a time runs it on PostgreSQL, and tests run a round now.
 */
const log = pino({ level: 'silent' });

/** A job whose rounds wait until released; counts how many run at once. */
function gatedJob(name: string) {
  const gates: Array<() => void> = [];
  const seen = { started: 0, atOnce: 0, most: 0 };
  return {
    seen,
    open: () => gates.shift()?.(),
    job: {
      name,
      everyMs: 60_000,
      run: async () => {
        seen.started += 1;
        seen.atOnce += 1;
        seen.most = Math.max(seen.most, seen.atOnce);
        await new Promise<void>((r) => gates.push(r));
        seen.atOnce -= 1;
      },
    },
  };
}

describe('the app', () => {
  let t: CheckoutTestApp;
  const timers: number[] = [];
  beforeAll(async () => {
    const every = vi.spyOn(globalThis, 'setInterval');
    try {
      t = await createCheckoutApp();
      for (const call of every.mock.calls) timers.push(Number(call[1]));
    } finally {
      every.mockRestore();
    }
  });
  afterAll(() => t.close());

  it('lists every job, and buildApp has started none of them', () => {
    // Before issue 38 the checkout, invoice and admin plugins each started their rounds' setInterval here.
    expect(timers).toEqual([]);
    expect(t.app.jobs.names().sort()).toEqual(Object.values(JOBS).sort());
    for (const state of t.app.jobs.states()) expect(state).toMatchObject({ runs: 0, lastStartedAt: null });
  });

  it('runOnce sends a queued mail now, and the job says when it ran', async () => {
    await enqueueMail(t.db, {
      kind: 'order-paid',
      to: 'jobs@example.com',
      subject: 'Compra realizada',
      html: '<p>x</p>',
      text: 'x',
      attachments: [],
    });
    const before = Date.now();
    expect(await t.app.jobs.runOnce(JOBS.mail)).toBe('done');
    const [row] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'jobs@example.com'));
    expect(row!.status).toBe('sent');
    const state = t.app.jobs.states().find((s) => s.name === JOBS.mail)!;
    expect(state).toMatchObject({ runs: 1, failures: 0, running: false, lastError: null });
    expect(state.lastSuccessAt).toBeGreaterThanOrEqual(before);
  });

  it('an unknown name is refused with the known ones', async () => {
    await expect(t.app.jobs.runOnce('nada')).rejects.toThrow(/trabajo desconocido: nada \(hay: correo/);
  });
});

describe('the registry', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  it('never runs two rounds of a job at once: runOnce during a round waits for it, then runs its own', async () => {
    const registry = new JobRegistry({ locks: new JobLocks(database), log });
    const gated = gatedJob('lento');
    registry.add(gated.job);
    const first = registry.runOnce('lento');
    const second = registry.runOnce('lento');
    await vi.waitFor(() => expect(gated.seen.started).toBe(1));
    gated.open();
    await vi.waitFor(() => expect(gated.seen.started).toBe(2));
    gated.open();
    expect(await Promise.all([first, second])).toEqual(['done', 'done']);
    expect(gated.seen.most).toBe(1);
    await registry.stop();
  });

  it('counts a failed round, logs it, and keeps the job scheduled', async () => {
    const registry = new JobRegistry({ locks: new JobLocks(database), log });
    let rounds = 0;
    registry.add({
      name: 'falla',
      everyMs: 5,
      run: async () => {
        rounds += 1;
        if (rounds === 1) throw new Error('el PAC no respondió');
      },
    });
    registry.start();
    await vi.waitFor(() => expect(rounds).toBeGreaterThanOrEqual(3));
    await registry.stop();
    const [state] = registry.states();
    expect(state).toMatchObject({ name: 'falla', failures: 1, lastError: null });
    expect(state!.runs).toBeGreaterThanOrEqual(2);
  });
});

describe('two processes on one PostgreSQL', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase({ postgres: true });
  });
  afterAll(() => database.close());

  it('one runs a job while the other skips it ("held"), and takes it once the first is done', async () => {
    // Each registry keeps its own connection for its locks: two sessions, as two processes or hosts would.
    const a = new JobRegistry({ locks: new JobLocks(database), log });
    const b = new JobRegistry({ locks: new JobLocks(database), log });
    const gated = gatedJob('global');
    a.add(gated.job);
    b.add(gated.job);
    const running = a.runOnce('global');
    await vi.waitFor(() => expect(gated.seen.started).toBe(1));
    expect(await b.runOnce('global')).toBe('held');
    expect(gated.seen.started).toBe(1);
    expect(b.states()[0]).toMatchObject({ held: 1, runs: 0 });
    gated.open();
    expect(await running).toBe('done');
    const next = b.runOnce('global');
    await vi.waitFor(() => expect(gated.seen.started).toBe(2));
    gated.open();
    expect(await next).toBe('done');
    await a.stop();
    await b.stop();
  });

  it('a process that dies lets go of its jobs at once (no lease to wait out)', async () => {
    const a = new JobLocks(database);
    const b = new JobLocks(database);
    expect(await a.take('factura-global')).toBe(true);
    expect(await b.take('factura-global')).toBe(false);
    a.close(); // its connection is closed, as a dead process's would be
    await vi.waitFor(async () => expect(await b.take('factura-global')).toBe(true));
    b.close();
  });
});

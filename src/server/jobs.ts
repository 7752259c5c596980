import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { purgeExpiredAuthData } from './auth/cleanup.ts';
import { sweepCancellations, sweepOnce } from './checkout/sweeper.ts';
import { followUpPaymentCfdis, sendReminders } from './credit/collections.ts';
import { issueCreditInvoicesRound } from './credit/invoice-ppd.ts';
import { JobLocks } from './db/lease.ts';
import { issueWaitingAtPurchase } from './invoices/at-purchase.ts';
import { createInvoicingContext, type InvoicingContext } from './invoices/context.ts';
import { followTheMoneyRound } from './invoices/follow-money.ts';
import { followUpCancellations } from './invoices/follow-up.ts';
import { globalInvoiceJob } from './invoices/global.ts';
import { resumeGlobalInvoices } from './invoices/global-release.ts';
import { lowStockDigestRound } from './low-stock/digest.ts';
import { createMailTransport } from './mail/transport.ts';
import { type MailWorker, startMailWorker } from './mail/worker.ts';
import { lateBackordersRound } from './shipments/late.ts';
import { pickupReminderRound } from './shipments/pickup.ts';
import { notifyRestocked } from './stock-alerts/service.ts';

/**
 * The one home of a process's background work (decision 054). Each job has a name, the pause between its rounds,
 * a lock so that one process at a time runs it across processes and hosts (db/lease.ts JobLocks) and never two
 * rounds of it at once in a process. buildApp makes the registry without starting anything; main.ts starts it;
 * tests call `app.jobs.runOnce(name)` instead of waiting for a timer. The job bodies live in their features.
 */
export type Job = {
  name: string;
  /** Pause between the end of one round and the start of the next. */
  everyMs: number;
  /** The first round this long after start (default: everyMs). */
  firstAfterMs?: number;
  run: () => Promise<unknown>;
};

/** What a round came to: done, failed (logged and counted), or skipped because another process holds the job. */
export type JobOutcome = 'done' | 'failed' | 'held';

export type JobState = {
  name: string;
  everyMs: number;
  /** Rounds finished without an error / with one. */
  runs: number;
  failures: number;
  /** Rounds skipped because another process held the job. */
  held: number;
  running: boolean;
  /** Epoch milliseconds. */
  lastStartedAt: number | null;
  lastFinishedAt: number | null;
  lastSuccessAt: number | null;
  lastDurationMs: number | null;
  lastError: string | null;
};

type Entry = { job: Job; state: JobState; current: Promise<JobOutcome> | null; timer?: NodeJS.Timeout };

export class JobRegistry {
  private readonly entries = new Map<string, Entry>();
  private started = false;
  private stopped = false;

  constructor(
    private readonly options: {
      locks: JobLocks;
      log: FastifyBaseLogger;
      /** Called by stop() once no round is in flight (a transport to close…). */
      onStop?: () => void;
    },
  ) {}

  add(job: Job): void {
    if (this.entries.has(job.name)) throw new Error(`trabajo duplicado: ${job.name}`);
    this.entries.set(job.name, {
      job,
      current: null,
      state: {
        name: job.name,
        everyMs: job.everyMs,
        runs: 0,
        failures: 0,
        held: 0,
        running: false,
        lastStartedAt: null,
        lastFinishedAt: null,
        lastSuccessAt: null,
        lastDurationMs: null,
        lastError: null,
      },
    });
  }

  names(): string[] {
    return [...this.entries.keys()];
  }

  /** Each job's counters and times (copies), for /metrics. */
  states(): JobState[] {
    return [...this.entries.values()].map((e) => ({ ...e.state }));
  }

  private entry(name: string): Entry {
    const entry = this.entries.get(name);
    if (!entry) throw new Error(`trabajo desconocido: ${name} (hay: ${this.names().join(', ')})`);
    return entry;
  }

  /** One round now: after the round in flight in this process, if any (never two at once). */
  async runOnce(name: string): Promise<JobOutcome> {
    const entry = this.entry(name);
    while (entry.current) await entry.current;
    const round = this.round(entry);
    entry.current = round;
    try {
      return await round;
    } finally {
      entry.current = null;
    }
  }

  private async round(entry: Entry): Promise<JobOutcome> {
    const { job, state } = entry;
    const { locks, log } = this.options;
    let mine: boolean;
    try {
      mine = await locks.take(job.name);
    } catch (error) {
      state.failures += 1;
      state.lastError = error instanceof Error ? error.message : String(error);
      log.error({ err: error, job: job.name }, 'trabajo en segundo plano: no se pudo tomar su candado');
      return 'failed';
    }
    if (!mine) {
      state.held += 1;
      return 'held';
    }
    const started = Date.now();
    state.running = true;
    state.lastStartedAt = started;
    try {
      await job.run();
      state.runs += 1;
      state.lastSuccessAt = Date.now();
      state.lastError = null;
      return 'done';
    } catch (error) {
      state.failures += 1;
      state.lastError = error instanceof Error ? error.message : String(error);
      log.error({ err: error, job: job.name }, `trabajo en segundo plano falló: ${job.name}`);
      return 'failed';
    } finally {
      state.running = false;
      state.lastFinishedAt = Date.now();
      state.lastDurationMs = state.lastFinishedAt - started;
      await locks.release(job.name);
    }
  }

  /** Starts every job's timer (once). A tick that finds a round in flight (runOnce) waits for the next one. */
  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    for (const entry of this.entries.values())
      this.schedule(entry, entry.job.firstAfterMs ?? entry.job.everyMs);
  }

  private schedule(entry: Entry, inMs: number) {
    if (this.stopped) return;
    entry.timer = setTimeout(() => {
      if (entry.current) {
        this.schedule(entry, entry.job.everyMs);
        return;
      }
      void this.runOnce(entry.job.name).finally(() => this.schedule(entry, entry.job.everyMs));
    }, inMs);
    entry.timer.unref();
  }

  /** Stops the timers and waits for the rounds in flight (call it before closing the database). */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    for (const entry of this.entries.values()) clearTimeout(entry.timer);
    await Promise.all([...this.entries.values()].map((e) => e.current?.catch(() => 'failed')));
    this.options.locks.close();
    this.options.onStop?.();
  }
}

/** The names of the jobs, as logs, metrics and tests call them. */
export const JOBS = {
  mail: 'correo',
  sessions: 'sesiones',
  reservations: 'reservaciones',
  cancellations: 'cancelaciones',
  invoiceAtPurchase: 'facturas-al-comprar',
  invoiceFollowUp: 'seguimiento-facturas',
  globalInvoice: 'factura-global',
  stockAlerts: 'avisos-existencia',
  creditInvoices: 'facturas-a-credito',
  collections: 'cobranza',
  pickupReminders: 'recordatorios-sucursal',
  lateBackorders: 'sobre-pedido-retrasado',
  lowStockDigest: 'por-agotarse',
} as const;

/**
 * The shop's jobs, on this app's database, gateway and configuration. Nothing runs until `start()` (main.ts) or
 * `runOnce(name)` (tests).
 */
export function createJobRegistry(app: FastifyInstance): JobRegistry {
  const { config, db, log } = app;
  const transport = createMailTransport(
    { smtpUrl: config.mail.smtpUrl, mailFrom: config.mail.from, env: config.env },
    log,
  );
  let mail: MailWorker | undefined;
  const registry = new JobRegistry({
    locks: new JobLocks(app.database),
    log,
    onStop: () => transport?.close(),
  });
  const orders = () => ({
    db,
    gateway: app.paymentGateway,
    publicUrl: config.publicUrl,
    log,
    hold: config.payments.hold,
    // A refund the sweeper finishes is followed by its CFDI at once, as one a request finishes (decision 045).
    taxPapers: app.taxPapers,
  });
  let invoicing: InvoicingContext | undefined;
  const invoices = () => {
    invoicing ??= createInvoicingContext(config, db, { log });
    return invoicing;
  };

  // The outbox (without SMTP in production the mails wait in mail_outbox: no job).
  if (transport) {
    registry.add({
      name: JOBS.mail,
      everyMs: 2_000,
      run: () => {
        mail ??= startMailWorker({ db, transport, log }, false);
        return mail.runOnce();
      },
    });
  }
  // Expired sessions and recovery codes, old attempt counters: hourly, the first a minute after start.
  registry.add({
    name: JOBS.sessions,
    everyMs: 60 * 60_000,
    firstAfterMs: 60_000,
    run: () => purgeExpiredAuthData(db),
  });
  // 'Avísame cuando haya' (decision 062): one mail per waiting alert whose product has stock again, every minute.
  registry.add({
    name: JOBS.stockAlerts,
    everyMs: 60_000,
    run: () => notifyRestocked(db, config.publicUrl),
  });
  // Reservations left unpaid, attempts of released orders, SPEI/store payments, then cancellations and refunds.
  registry.add({ name: JOBS.reservations, everyMs: 60_000, run: () => sweepOnce(orders()) });
  // Cancellations whose holder died (their lease ran out) and refunds owed, every 2 s: a cheap indexed query.
  registry.add({ name: JOBS.cancellations, everyMs: 2_000, run: () => sweepCancellations(orders()) });
  // 'Facturar esta compra' (issue 20): paid orders waiting for their CFDI, every few seconds.
  registry.add({
    name: JOBS.invoiceAtPurchase,
    everyMs: 3_000,
    run: () => issueWaitingAtPurchase(invoices()),
  });
  // Money that went back gets its paper (decision 045), cancellations 'en proceso' are asked about again until
  // the SAT answers, global CFDIs left half-way are finished. Each step runs even when the one before failed.
  registry.add({
    name: JOBS.invoiceFollowUp,
    everyMs: 15 * 60_000,
    run: async () => {
      const ctx = invoices();
      const failed: string[] = [];
      const step = async (what: string, work: () => Promise<unknown>) => {
        try {
          await work();
        } catch (error) {
          log.error({ err: error }, what);
          failed.push(what);
        }
      };
      await step('comprobantes del dinero devuelto', () => followTheMoneyRound(ctx));
      await step('seguimiento de cancelaciones en proceso', () => followUpCancellations(ctx));
      await step('facturas globales pendientes', () => resumeGlobalInvoices(ctx));
      if (failed.length) throw new Error(`fallaron: ${failed.join('; ')}`);
    },
  });
  // The monthly CFDI global (decision 023): every hour, the previous month's within the 72 hours after it closes.
  registry.add({
    name: JOBS.globalInvoice,
    everyMs: 60 * 60_000,
    run: async () => {
      if ((await globalInvoiceJob(invoices())) === 'issued')
        log.info('factura global del mes anterior emitida');
    },
  });
  // Sales on credit (decision 060): the invoice PPD of orders shipped (or confirmed, per config) and CFDI de pago
  // left pending, every minute; reminders before and after the due date and the CFDI de pago past the 5th, hourly.
  registry.add({
    name: JOBS.creditInvoices,
    everyMs: 60_000,
    run: () => issueCreditInvoicesRound(invoices()),
  });
  registry.add({
    name: JOBS.collections,
    everyMs: 60 * 60_000,
    firstAfterMs: 5 * 60_000,
    run: async () => {
      const ctx = invoices();
      await followUpPaymentCfdis(ctx);
      await sendReminders(ctx);
    },
  });
  // 'Recoger en sucursal' (issue 35): one reminder for an order ready at a branch and not collected after N days.
  registry.add({
    name: JOBS.pickupReminders,
    everyMs: 60 * 60_000,
    firstAfterMs: 5 * 60_000,
    run: () => pickupReminderRound(db, config.publicUrl),
  });
  // 'Sobre pedido' past its promised window (issue 35): a new date, a staff alert on the order, the buyer told.
  registry.add({
    name: JOBS.lateBackorders,
    everyMs: 60 * 60_000,
    firstAfterMs: 10 * 60_000,
    run: () => lateBackordersRound(db, config.publicUrl),
  });
  // 'Por agotarse' (decision 066): hourly; from 07:00 Mexico City the day's digest to almacén, once a day per person.
  registry.add({
    name: JOBS.lowStockDigest,
    everyMs: 60 * 60_000,
    firstAfterMs: 2 * 60_000,
    run: () =>
      lowStockDigestRound(db, {
        publicUrl: config.publicUrl,
        defaultReorderPoint: config.stock.reorderPointDefault,
      }),
  });
  return registry;
}

/** main.ts: starts this process's jobs; answers how to stop them (before app.close()). */
export function startBackgroundJobs(app: FastifyInstance): () => Promise<void> {
  if (!app.jobs.names().includes(JOBS.mail))
    app.log.warn('SMTP_URL no está configurado: los correos esperan en la bandeja de salida (mail_outbox)');
  else app.log.info('envío de correos iniciado');
  app.jobs.start();
  return () => app.jobs.stop();
}

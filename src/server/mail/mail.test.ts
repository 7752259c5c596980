import { createServer } from 'node:net';
import { sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/server/support/test-app.ts';
import { renderMail } from './layout.ts';
import { enqueueMail } from './outbox.ts';
import { createMailTransport } from './transport.ts';
import { startMailWorker } from './worker.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.database.db.execute(sql`delete from mail_outbox`);
});

type Received = { from: string; to: string[]; raw: string };

/** A real SMTP listener on 127.0.0.1 that keeps what it receives. */
async function startSmtp(port = 0) {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.server.address();
  const actual = typeof address === 'object' && address ? address.port : port;
  return {
    port: actual,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A port nobody listens on (yet). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

const outbox = async () =>
  (
    (await t.database.db.execute(
      sql`select id, status, attempts, last_error, sent_at, extract(epoch from next_attempt_at - now())::float8 as wait from mail_outbox order by id`,
    )) as unknown as {
      rows: {
        id: number;
        status: string;
        attempts: number;
        last_error: string | null;
        sent_at: unknown;
        wait: number;
      }[];
    }
  ).rows;

const testMail = (to: string, extra: Partial<Parameters<typeof enqueueMail>[1]> = {}) => ({
  kind: 'prueba',
  to,
  subject: 'Prueba de envio',
  html: '<p>Hola</p>',
  text: 'Hola desde la tienda',
  ...extra,
});

describe('outbox', () => {
  it('is idempotent on the dedupe key', async () => {
    const first = await enqueueMail(t.database.db, testMail('a@example.com', { dedupeKey: 'order-paid:1' }));
    const second = await enqueueMail(t.database.db, testMail('a@example.com', { dedupeKey: 'order-paid:1' }));
    expect(first).toBeTypeOf('number');
    expect(second).toBeNull();
    await enqueueMail(t.database.db, testMail('a@example.com'));
    await enqueueMail(t.database.db, testMail('a@example.com'));
    expect(await outbox()).toHaveLength(3);
  });

  it('writes nothing when the transaction of its cause rolls back', async () => {
    await expect(
      t.database.db.transaction(async (tx) => {
        await enqueueMail(tx, testMail('b@example.com'));
        throw new Error('la orden falló');
      }),
    ).rejects.toThrow('la orden falló');
    expect(await outbox()).toHaveLength(0);
  });
});

describe('SMTP delivery', () => {
  it('delivers through SMTP_URL, with text, HTML and attachments', async () => {
    const smtp = await startSmtp();
    const transport = createMailTransport(
      {
        smtpUrl: `smtp://127.0.0.1:${smtp.port}`,
        mailFrom: '"Ciencia Occidente" <ventas@ciencia-occidente.mx>',
        env: 'production',
      },
      t.app.log,
    );
    expect(transport?.kind).toBe('smtp');
    const worker = startMailWorker({ db: t.database.db, transport: transport!, log: t.app.log }, false);
    try {
      const { html, text } = renderMail(
        { title: 'Compra realizada', blocks: [{ kind: 'paragraph', text: 'Gracias <por> su compra' }] },
        'https://tienda.example',
      );
      await enqueueMail(t.database.db, {
        kind: 'order-paid',
        to: 'cliente@example.com',
        subject: 'Compra realizada con éxito',
        html,
        text,
        attachments: [
          {
            filename: 'factura.xml',
            contentType: 'application/xml',
            contentBase64: Buffer.from('<cfdi/>').toString('base64'),
          },
        ],
      });
      expect(await worker.runOnce()).toBe(1);
      expect(smtp.received).toHaveLength(1);
      const mail = smtp.received[0]!;
      expect(mail.to).toEqual(['cliente@example.com']);
      expect(mail.from).toBe('ventas@ciencia-occidente.mx');
      expect(mail.raw).toContain('Subject: =?UTF-8?');
      expect(mail.raw).toContain('Content-Type: text/plain');
      expect(mail.raw).toContain('Content-Type: text/html');
      expect(mail.raw).toContain('filename=factura.xml');
      expect(mail.raw).toContain(Buffer.from('<cfdi/>').toString('base64'));
      const [row] = await outbox();
      expect(row).toMatchObject({ status: 'sent', attempts: 1, last_error: null });
      // Sent mail is not sent again.
      expect(await worker.runOnce()).toBe(0);
      expect(smtp.received).toHaveLength(1);
    } finally {
      await worker.stop();
      await smtp.close();
    }
  });

  it('retries with exponential backoff after the listener was down, then delivers', async () => {
    const port = await freePort();
    const transport = createMailTransport(
      { smtpUrl: `smtp://127.0.0.1:${port}`, mailFrom: undefined, env: 'test' },
      t.app.log,
    )!;
    const worker = startMailWorker(
      { db: t.database.db, transport, log: t.app.log, backoffBaseMs: 60_000 },
      false,
    );
    try {
      await enqueueMail(t.database.db, testMail('reintento@example.com'));
      expect(await worker.runOnce()).toBe(0);
      let [row] = await outbox();
      expect(row).toMatchObject({ status: 'pending', attempts: 1 });
      expect(row?.last_error).toMatch(/ECONNREFUSED|connect/i);
      expect(row?.wait).toBeGreaterThan(55);
      expect(row?.wait).toBeLessThanOrEqual(60);

      // Not due yet: nothing is tried.
      expect(await worker.runOnce()).toBe(0);
      expect((await outbox())[0]?.attempts).toBe(1);

      await t.database.db.execute(sql`update mail_outbox set next_attempt_at = now()`);
      expect(await worker.runOnce()).toBe(0);
      [row] = await outbox();
      expect(row?.attempts).toBe(2);
      expect(row?.wait).toBeGreaterThan(115); // doubled
      expect(row?.wait).toBeLessThanOrEqual(120);

      const smtp = await startSmtp(port);
      try {
        await t.database.db.execute(sql`update mail_outbox set next_attempt_at = now()`);
        expect(await worker.runOnce()).toBe(1);
        expect(smtp.received.map((m) => m.to)).toEqual([['reintento@example.com']]);
        expect((await outbox())[0]).toMatchObject({ status: 'sent', attempts: 3, last_error: null });
      } finally {
        await smtp.close();
      }
    } finally {
      await worker.stop();
    }
  });

  it('marks a mail failed after the last attempt', async () => {
    const port = await freePort();
    const transport = createMailTransport(
      { smtpUrl: `smtp://127.0.0.1:${port}`, mailFrom: undefined, env: 'test' },
      t.app.log,
    )!;
    const worker = startMailWorker(
      { db: t.database.db, transport, log: t.app.log, maxAttempts: 2, backoffBaseMs: 1 },
      false,
    );
    try {
      await enqueueMail(t.database.db, testMail('nunca@example.com'));
      await worker.runOnce();
      await t.database.db.execute(sql`update mail_outbox set next_attempt_at = now()`);
      await worker.runOnce();
      expect((await outbox())[0]).toMatchObject({ status: 'failed', attempts: 2 });
      await t.database.db.execute(sql`update mail_outbox set next_attempt_at = now()`);
      await worker.runOnce();
      expect((await outbox())[0]?.attempts).toBe(2);
    } finally {
      await worker.stop();
    }
  });

  it('never sends one mail twice when two workers run at once', async () => {
    const smtp = await startSmtp();
    const make = () =>
      startMailWorker(
        {
          db: t.database.db,
          transport: createMailTransport(
            { smtpUrl: `smtp://127.0.0.1:${smtp.port}`, mailFrom: undefined, env: 'test' },
            t.app.log,
          )!,
          log: t.app.log,
          batchSize: 3,
        },
        false,
      );
    const [a, b] = [make(), make()];
    try {
      for (let i = 0; i < 12; i++) await enqueueMail(t.database.db, testMail(`n${i}@example.com`));
      let sent = 0;
      for (let round = 0; round < 4; round++) {
        const [x, y] = await Promise.all([a.runOnce(), b.runOnce()]);
        sent += x + y;
      }
      expect(sent).toBe(12);
      const recipients = smtp.received.flatMap((m) => m.to).sort();
      expect(recipients).toHaveLength(12);
      expect(new Set(recipients).size).toBe(12);
    } finally {
      await a.stop();
      await b.stop();
      await smtp.close();
    }
  });

  it('does not pick up a mail another worker holds, until its claim expires', async () => {
    await enqueueMail(t.database.db, testMail('bloqueado@example.com'));
    await t.database.db.execute(sql`update mail_outbox set locked_until = now() + interval '1 minute'`);
    const sent: string[] = [];
    const worker = startMailWorker(
      {
        db: t.database.db,
        transport: { kind: 'log', send: async (m) => void sent.push(m.to), close: () => {} },
        log: t.app.log,
      },
      false,
    );
    expect(await worker.runOnce()).toBe(0);
    await t.database.db.execute(sql`update mail_outbox set locked_until = now() - interval '1 second'`);
    expect(await worker.runOnce()).toBe(1);
    expect(sent).toEqual(['bloqueado@example.com']);
    await worker.stop();
  });
});

describe('without SMTP_URL', () => {
  it('development logs the mail; production has no transport (mail waits in the outbox)', () => {
    expect(
      createMailTransport({ smtpUrl: undefined, mailFrom: undefined, env: 'development' }, t.app.log)?.kind,
    ).toBe('log');
    expect(
      createMailTransport({ smtpUrl: undefined, mailFrom: undefined, env: 'production' }, t.app.log),
    ).toBeNull();
  });

  it('shows the outbox at /dev/correo and /dev/correo.json, newest first', async () => {
    await enqueueMail(t.database.db, testMail('uno@example.com', { subject: 'Primero' }));
    await enqueueMail(
      t.database.db,
      testMail('dos@example.com', { subject: 'Segundo <b>', text: 'Código: ABCD2345' }),
    );
    const json = await t.app.inject('/dev/correo.json');
    expect(json.statusCode).toBe(200);
    const { mails } = json.json() as { mails: { subject: string; to: string; text: string }[] };
    expect(mails.map((m) => m.subject)).toEqual(['Segundo <b>', 'Primero']);
    expect(mails[0]).toMatchObject({ to: 'dos@example.com', text: 'Código: ABCD2345' });
    const page = await t.app.inject('/dev/correo');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('Segundo &lt;b&gt;');
    expect(page.body).not.toContain('Segundo <b>');
    expect(page.body.indexOf('Segundo')).toBeLessThan(page.body.indexOf('Primero'));
  });

  it('/dev/correo does not exist in production', async () => {
    const prod = await createTestApp({ config: { env: 'production' } });
    try {
      await enqueueMail(prod.database.db, testMail('secreto@example.com'));
      for (const url of ['/dev/correo', '/dev/correo.json', '/dev/correo/1']) {
        const res = await prod.app.inject(url);
        expect(res.statusCode, url).toBe(404);
        expect(res.body).not.toContain('secreto@example.com');
      }
    } finally {
      await prod.close();
    }
  });
});

describe('mail layout', () => {
  it("carries the shop's identity and escapes content, in HTML and text", () => {
    const { html, text } = renderMail(
      {
        title: 'Su código',
        greeting: 'Hola, <Ana>:',
        blocks: [
          { kind: 'code', text: 'K7M4P9XQ' },
          { kind: 'button', label: 'Cambiar contraseña', url: 'https://tienda.example/codigo_recuperar' },
          { kind: 'rows', rows: [['Pedido', '#1042']] },
        ],
      },
      'https://tienda.example',
    );
    expect(html).toContain('Ciencia Occidente');
    expect(html).toContain('Suministros Científicos de Occidente, S.A. de C.V.');
    expect(html).toContain('Hola, &lt;Ana&gt;:');
    expect(html).toContain('href="https://tienda.example/codigo_recuperar"');
    expect(html).toContain('lang="es-MX"');
    expect(text).toContain('Hola, <Ana>:');
    expect(text).toContain('K7M4P9XQ');
    expect(text).toContain('Cambiar contraseña: https://tienda.example/codigo_recuperar');
    expect(text).toContain('Pedido: #1042');
    expect(text).toContain('Av. Mariano Otero 1249');
  });
});

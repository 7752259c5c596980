import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  createShopper,
  placeOrderRequest,
  productWithStock,
  sandboxToken,
} from '../../../tests/server/support/checkout.ts';
import { insertInvoiceRow } from '../../../tests/server/support/invoice-orders.ts';
import { buildApp } from '../app.ts';
import { seedDemoCatalogue } from '../catalog/demo/seed.ts';
import { loadConfig } from '../config.ts';
import { backupEmbedded, restoreEmbedded } from './backup.ts';
import { openDatabase } from './client.ts';
import { LOCK_FILE, processStart } from './embedded-lock.ts';
import { invoices, orderLedger, orders, stockMovements } from './schema.ts';

/**
 * Issue 38: `npm run backup` / `npm run restore` of the embedded database. A shop's data directory with a paid order,
 * its invoice and its stock ledger is backed up, restored into a fresh data directory, and found there.
 */
const template = inject('databaseTemplate');
let root: string;
let shopDir: string;
let number: number;
const lines: string[] = [];
const progress = (line: string) => lines.push(line);

const counts = async (dataDir: string) => {
  const database = await openDatabase({ dataDir });
  try {
    const [o] = await database.db.select({ n: count() }).from(orders);
    const [i] = await database.db.select({ n: count() }).from(invoices);
    const [s] = await database.db.select({ n: count() }).from(stockMovements);
    const [l] = await database.db.select({ n: count() }).from(orderLedger);
    const [order] = await database.db.select().from(orders).where(eq(orders.number, number));
    return { orders: o!.n, invoices: i!.n, stock: s!.n, ledger: l!.n, order };
  } finally {
    await database.close();
  }
};

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'tienda-respaldo-'));
  shopDir = join(root, 'data');
  // A shop's data directory (the run's migrated template, on a folder), with a paid card order and its invoice.
  // The backup is of the embedded database: with the API tests on PostgreSQL (CI), the shop's folder is migrated here.
  const database = await openDatabase({
    dataDir: shopDir,
    ...(template.kind === 'pglite' ? { loadDataDir: new Blob([readFileSync(template.file)]) } : {}),
  });
  if (template.kind !== 'pglite') await database.migrate();
  await seedDemoCatalogue(database.db, { products: 6 });
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PUBLIC_URL: 'http://tienda.test' });
  const app = await buildApp(config, { database });
  await app.ready();
  const t = { app, database, db: database.db, close: async () => {} };
  const shopper = await createShopper(t);
  const product = await productWithStock(t, 9, 1);
  const res = await placeOrderRequest(t, shopper, {
    items: [{ code: product.code, quantity: 2 }],
    cardToken: await sandboxToken(t, '4111111111111111'),
    deviceSessionId: 'respaldo',
  });
  expect(res.statusCode, res.body).toBe(201);
  number = res.json<{ number: number }>().number;
  await insertInvoiceRow(database.db, { orderNumber: number, userId: shopper.id, status: 'issued' });
  await app.close();
  await database.close();
}, 120_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('npm run backup / npm run restore (embedded database)', () => {
  it('a backup restored into a fresh data directory has the orders, invoices and stock ledger', async () => {
    const before = await counts(shopDir);
    expect(before.order).toMatchObject({ status: 'paid' });
    expect(before.invoices).toBeGreaterThanOrEqual(1);

    const out = join(root, 'respaldos', 'tienda.tar.gz');
    const made = await backupEmbedded({ dataDir: shopDir, out, progress });
    expect(made.summary).toMatchObject({ orders: before.orders, invoices: before.invoices });
    expect(existsSync(out)).toBe(true);
    expect(lines.some((l) => /Volcando/.test(l))).toBe(true);
    expect(lines.some((l) => /escrito .* \(100 %\)/.test(l))).toBe(true);

    const fresh = join(root, 'restaurada');
    const restored = await restoreEmbedded({ file: out, dataDir: fresh, progress });
    expect(restored.keptAside).toBeNull();
    const after = await counts(fresh);
    expect(after).toEqual(before);
    expect(after.ledger).toBeGreaterThan(0);
    expect(after.stock).toBeGreaterThan(0);
  }, 120_000);

  it('refuses to overwrite a backup file or a data directory without --force; with it the old one is kept aside', async () => {
    const out = join(root, 'otra.tar.gz');
    writeFileSync(out, 'no me borre');
    await expect(backupEmbedded({ dataDir: shopDir, out })).rejects.toThrow(/ya existe.*--force/);
    expect(readFileSync(out, 'utf8')).toBe('no me borre');
    await backupEmbedded({ dataDir: shopDir, out, force: true });

    await expect(restoreEmbedded({ file: out, dataDir: shopDir })).rejects.toThrow(
      /ya tiene una base de datos.*--force/,
    );
    const forced = await restoreEmbedded({ file: out, dataDir: shopDir, force: true });
    expect(forced.keptAside).toMatch(/pglite\.antes-de-restaurar-/);
    expect(existsSync(forced.keptAside!)).toBe(true);
    expect((await counts(shopDir)).order).toMatchObject({ status: 'paid' });
  }, 120_000);

  it('refuses both while the shop runs, naming its pid', async () => {
    // The shop's lock as a running shop leaves it: a live process (this test's parent) holds the folder.
    const pid = process.ppid;
    writeFileSync(
      join(shopDir, LOCK_FILE),
      `${JSON.stringify({ pid, start: processStart(pid), role: 'shop', socketDir: null, since: new Date().toISOString() })}\n`,
    );
    try {
      const running = new RegExp(`La tienda está en marcha \\(pid ${pid}\\).*deténgala primero`);
      await expect(backupEmbedded({ dataDir: shopDir, out: join(root, 'x.tar.gz') })).rejects.toThrow(
        running,
      );
      await expect(
        restoreEmbedded({ file: join(root, 'otra.tar.gz'), dataDir: shopDir, force: true }),
      ).rejects.toThrow(running);
      expect(existsSync(join(root, 'x.tar.gz'))).toBe(false);
    } finally {
      rmSync(join(shopDir, LOCK_FILE), { force: true });
    }
  });
});

import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestOrder,
  createTestShopper,
  type TestShopper,
} from '../../../tests/server/support/invoice-orders.ts';
import { createTestApp, type TestApp } from '../../../tests/server/support/test-app.ts';
import { loadConfig } from '../config.ts';
import { invoices } from '../db/schema.ts';
import {
  compactPostalCodes,
  DEFAULT_POSTAL_CODES_FILE,
  loadPostalCatalogue,
  parsePostalCatalogue,
  postalCodeMessage,
} from './postal-codes.ts';

const SAMPLE = join(import.meta.dirname, '../../../tests/server/fixtures/cfdi/c_CodigoPostal-sample.txt');

describe('c_CodigoPostal in compact form', () => {
  it('reads runs and single codes, and nothing else', () => {
    const catalogue = parsePostalCatalogue('# fuente: prueba\n01000-01003\n44100\n\n99998\n');
    expect(catalogue.size).toBe(6);
    expect(catalogue.source).toBe('prueba');
    for (const cp of ['01000', '01001', '01003', '44100', '99998']) expect(catalogue.has(cp)).toBe(true);
    for (const cp of ['01004', '00999', '44101', '99999', '4410', 'abcde'])
      expect(catalogue.has(cp)).toBe(false);
  });

  it('refuses a malformed line', () => {
    expect(() => parsePostalCatalogue('01000-0100\n')).toThrow(/línea 1/);
    expect(() => parsePostalCatalogue('44100\n01003-01000\n')).toThrow(/línea 2/);
  });

  it('writes sorted runs that read back as the same set', () => {
    const codes = ['44100', '01002', '01000', '01001', '99998', '01002', '0100', '06600'];
    const text = compactPostalCodes(codes, ['fuente: prueba']);
    expect(text).toBe('# fuente: prueba\n01000-01002\n06600\n44100\n99998\n');
    const back = parsePostalCatalogue(text);
    expect(back.size).toBe(6);
    for (const cp of codes.filter((c) => c.length === 5)) expect(back.has(cp)).toBe(true);
  });

  it('the catalogue shipped in the repo parses', () => {
    expect(() => loadPostalCatalogue(DEFAULT_POSTAL_CODES_FILE)).not.toThrow();
  });
});

describe('POST /api/orders/:number/invoice checks the CP against c_CodigoPostal', () => {
  let t: TestApp;
  let ana: TestShopper;
  beforeAll(async () => {
    const base = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' });
    t = await createTestApp({ config: { invoicing: { ...base.invoicing, postalCodesFile: SAMPLE } } });
    ana = await createTestShopper(t.database.db, 'Ana');
  });
  afterAll(async () => {
    await t.close();
  });

  const form = {
    nombreFiscal: 'Laboratorios Químicos del Bajío',
    rfc: 'LQB150101AB3',
    regimenFiscal: '601',
    usoCfdi: 'G03',
    formaPago: '04',
    cp: '44100',
  };
  const request = (number: number, payload: object) =>
    t.app.inject({ method: 'POST', url: `/api/orders/${number}/invoice`, payload, cookies: ana.cookie });

  it('refuses a CP outside the catalogue with 400 on the field, nothing stored or stamped', async () => {
    const number = await createTestOrder(t.database.db, ana.id);
    const res = await request(number, { ...form, cp: '44199' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toEqual({ cp: postalCodeMessage('44199') });
    expect(res.json().error.message).toBe(
      'El código postal 44199 no está en el catálogo de códigos postales del SAT (c_CodigoPostal); escriba el de su Constancia de Situación Fiscal',
    );
    expect(await t.database.db.select().from(invoices).where(eq(invoices.orderNumber, number))).toEqual([]);
  });

  it('issues the invoice for a CP in the catalogue', async () => {
    const number = await createTestOrder(t.database.db, ana.id);
    expect((await request(number, { ...form, cp: '44135' })).statusCode).toBe(201);
  });
});

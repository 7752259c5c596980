import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CheckoutTestApp,
  createCheckoutApp,
  createStaff,
  type Shopper,
} from '../../../tests/server/support/staff.ts';
import type { ProductDetail } from '../../shared/schemas/catalog.ts';
import { products } from '../db/schema.ts';

/**
 * Reagent safety data (decision 027): stored on the family's base, shown by every presentation — through the API,
 * the server-rendered 'Seguridad' panel and the product's JSON-LD; staff edit it in the form with codes checked
 * against the official list; the database keeps it off presentations.
 */
let t: CheckoutTestApp;
let staff: Shopper;
let clientDir: string;

const HCL = {
  name: 'Ácido clorhídrico 37 % grado ACS',
  brand: 'Quimiva',
  groupClas: 'REA-ACI',
  casNumber: '7647-01-0',
  formula: 'HCl',
};

beforeAll(async () => {
  clientDir = mkdtempSync(join(tmpdir(), 'safety-'));
  writeFileSync(
    join(clientDir, 'index.html'),
    '<!doctype html><html lang="es-MX"><head><title>x</title><!--page-meta--></head><body><div id="root"></div></body></html>',
  );
  t = await createCheckoutApp({ config: { clientDir } });
  staff = await createStaff(t);
  await t.db.insert(products).values([
    {
      ...HCL,
      code: 'HCL-1L',
      priceCents: 42_000,
      presentationLabel: '1 L',
      molarMass: 36.46,
      grade: 'ACS',
      ghsPictograms: ['GHS05', 'GHS07'],
      signalWord: 'danger',
      hazardStatements: ['H290', 'H314', 'H335'],
      precautionaryStatements: ['P280', 'P303+P361+P353', 'P305+P351+P338'],
      storageConditions: 'Entre 15 y 25 °C, separado de bases y metales.',
    },
    { ...HCL, code: 'HCL-4L', priceCents: 150_000, presentationLabel: '4 L', familyCode: 'HCL-1L' },
    { code: 'MAT-1', name: 'Matraz Erlenmeyer 250 ml', groupClas: 'VID-MAT', priceCents: 9_000 },
  ]);
});
afterAll(async () => {
  await t.close();
  rmSync(clientDir, { recursive: true, force: true });
});

const detail = async (code: string) => {
  const res = await t.app.inject({ url: `/api/products/${code}` });
  expect(res.statusCode).toBe(200);
  return res.json<ProductDetail>();
};
const put = (code: string, payload: Record<string, unknown>) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/admin/products/${code}`,
    headers: { cookie: staff.cookie },
    payload,
  });
const formOf = async (code: string) => {
  const res = await t.app.inject({ url: `/api/admin/products/${code}`, headers: { cookie: staff.cookie } });
  const p = res.json();
  return {
    name: p.name,
    brand: p.brand ?? '',
    groupClas: p.groupClas,
    price: String(p.priceCents / 100),
    weightKg: String(p.weightKg),
    familyCode: p.familyCode ?? '',
    presentationLabel: p.presentationLabel ?? '',
  };
};

describe('reagent safety data', () => {
  it('the API gives the safety facts with the official Spanish texts, and a presentation shows its base’s', async () => {
    const base = await detail('HCL-1L');
    expect(base.safety).toEqual({
      molarMass: 36.46,
      grade: { code: 'ACS', name: 'Grado ACS' },
      pictograms: [
        {
          code: 'GHS05',
          name: 'Corrosión',
          alt: 'Pictograma GHS05 (corrosión): corrosivo',
          url: '/ghs/v1/ghs05.svg',
        },
        {
          code: 'GHS07',
          name: 'Signo de exclamación',
          alt: 'Pictograma GHS07 (signo de exclamación): nocivo o irritante',
          url: '/ghs/v1/ghs07.svg',
        },
      ],
      signalWord: 'Peligro',
      hazardStatements: [
        { code: 'H290', text: 'Puede ser corrosivo para los metales.' },
        { code: 'H314', text: 'Provoca quemaduras graves en la piel y lesiones oculares graves.' },
        { code: 'H335', text: 'Puede irritar las vías respiratorias.' },
      ],
      precautionaryStatements: [
        { code: 'P280', text: 'Llevar guantes/prendas/gafas/máscara de protección.' },
        {
          code: 'P303+P361+P353',
          text: 'EN CASO DE CONTACTO CON LA PIEL (o el pelo): Quitarse inmediatamente las prendas contaminadas. Aclararse la piel con agua o ducharse.',
        },
        {
          code: 'P305+P351+P338',
          text: 'EN CASO DE CONTACTO CON LOS OJOS: Aclarar cuidadosamente con agua durante varios minutos. Quitar las lentes de contacto, si lleva y resulta fácil. Seguir aclarando.',
        },
      ],
      storageConditions: 'Entre 15 y 25 °C, separado de bases y metales.',
    });
    expect((await detail('HCL-4L')).safety).toEqual(base.safety);
    expect((await detail('MAT-1')).safety).toBeNull();
  });

  it('the server-rendered product page has the Seguridad panel with the pictograms’ alt texts, the signal word and the statements; the JSON-LD names the CAS', async () => {
    const res = await t.app.inject('/productos/HCL-4L');
    expect(res.statusCode).toBe(200);
    const html = res.body;
    expect(html).toContain('id="seguridad"');
    expect(html).toContain('alt="Pictograma GHS05 (corrosión): corrosivo"');
    expect(html).toContain('alt="Pictograma GHS07 (signo de exclamación): nocivo o irritante"');
    expect(html).toContain('src="/ghs/v1/ghs05.svg"');
    expect(html).toContain('>Peligro</strong>');
    expect(html).toContain('Provoca quemaduras graves en la piel y lesiones oculares graves.');
    expect(html).toContain('Consejos de prudencia');
    expect(html).toContain('36.46 g/mol');
    expect(html).toContain('"propertyID":"CAS","value":"7647-01-0"');
    const plain = await t.app.inject('/productos/MAT-1');
    expect(plain.body).not.toContain('id="seguridad"');
  });

  it('serves the nine pictograms for a year', async () => {
    // The built client serves them from src/client/public (vite's publicDir) copied into dist/client.
    const { existsSync, readFileSync } = await import('node:fs');
    for (let n = 1; n <= 9; n++) {
      const file = join(import.meta.dirname, `../../client/public/ghs/v1/ghs0${n}.svg`);
      expect(existsSync(file)).toBe(true);
      const svg = readFileSync(file, 'utf8');
      expect(svg).toContain('stroke="#e30613"');
      expect(svg).toMatch(/<title>GHS0\d /);
    }
  });

  it('staff edit the reagent fields; unknown codes, a bad CAS, a negative molar mass are refused naming the field, and change nothing', async () => {
    const form = await formOf('HCL-1L');
    const bad = async (payload: Record<string, unknown>, field: string, message: RegExp) => {
      const res = await put('HCL-1L', { ...form, ...payload });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.fields[field]).toMatch(message);
    };
    await bad(
      { hazardStatements: 'H290 H999' },
      'hazardStatements',
      /«H999» no es una indicación de peligro/,
    );
    await bad(
      { precautionaryStatements: 'P280 P9999' },
      'precautionaryStatements',
      /«P9999» no es un consejo/,
    );
    await bad({ ghsPictograms: ['GHS05', 'GHS10'] }, 'ghsPictograms', /Pictograma desconocido/);
    await bad({ casNumber: '7647-01-1' }, 'casNumber', /dígito verificador/);
    await bad({ molarMass: '-36.46' }, 'molarMass', /mayor que cero/);
    await bad({ grade: 'Ultra' }, 'grade', /Grado desconocido/);
    expect((await detail('HCL-1L')).safety?.hazardStatements.map((h) => h.code)).toEqual([
      'H290',
      'H314',
      'H335',
    ]);

    const ok = await put('HCL-1L', {
      ...form,
      casNumber: '7647-01-0',
      formula: 'HCl',
      molarMass: '36,461',
      grade: 'RA',
      ghsPictograms: ['GHS07', 'GHS05'],
      signalWord: 'danger',
      hazardStatements: 'h290, H314 h335',
      precautionaryStatements: 'P261 P280 P305 + P351 + P338',
      storageConditions: 'En lugar bien ventilado.',
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().product).toMatchObject({
      molarMass: 36.461,
      grade: 'RA',
      ghsPictograms: ['GHS05', 'GHS07'],
      hazardStatements: ['H290', 'H314', 'H335'],
      precautionaryStatements: ['P261', 'P280', 'P305+P351+P338'],
    });
    // A request that leaves the reagent fields out keeps them.
    const kept = await put('HCL-1L', form);
    expect(kept.statusCode).toBe(200);
    expect(kept.json().product.casNumber).toBe('7647-01-0');
    expect(kept.json().product.grade).toBe('RA');
  });

  it('a presentation takes no safety data of its own: the form and the database refuse it', async () => {
    const form = await formOf('HCL-4L');
    const res = await put('HCL-4L', { ...form, hazardStatements: 'H314' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields.hazardStatements).toMatch(/se capturan en el producto base HCL-1L/);
    await expect(
      (async () => t.db.update(products).set({ grade: 'ACS' }).where(eq(products.code, 'HCL-4L')))(),
    ).rejects.toThrow();
    expect((await detail('HCL-4L')).safety?.grade?.code).toBe('RA');
  });
});

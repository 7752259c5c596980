import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/server/support/test-app.ts';
import { PAGE_SIZE_MAX, type SuggestResponse, suggestResponseSchema } from '../../shared/schemas/catalog.ts';
import { importCatalogue } from '../admin/import/importer.ts';
import { CLI_ACTOR } from '../audit/log.ts';
import { termKey } from './vocabulary.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seedProducts: 600 });
}, 120_000);
afterAll(() => t.close());

/** Products written the way staff write them: through the catalogue import (insert or update by code). */
async function importRows(lines: string[]) {
  const header = 'code,name,group,price,stock,family,presentation,cas_number,formula';
  const report = await importCatalogue(
    t.database.db,
    new TextEncoder().encode([header, ...lines].join('\n')),
    {
      filename: 'sugerencias.csv',
      dryRun: false,
      strict: false,
      actor: CLI_ACTOR,
    },
  );
  expect(report.rejected).toEqual([]);
}

const codes = (s: SuggestResponse) => s.products.map((p) => p.code);

async function suggest(q: string): Promise<SuggestResponse> {
  const res = await t.app.inject({ url: '/api/search/suggest', query: { q } });
  expect(res.statusCode, res.body).toBe(200);
  return suggestResponseSchema.parse(res.json());
}

describe('GET /api/search/suggest', () => {
  it("offers balanzas, their category, and the full search's count for 'balan'", async () => {
    const s = await suggest('balan');
    expect(s.products.length).toBeGreaterThan(0);
    expect(s.products.length).toBeLessThanOrEqual(6);
    expect(s.products.every((p) => p.name.startsWith('Balanza'))).toBe(true);
    expect(s.products[0]).toMatchObject({ code: expect.any(String), priceCents: expect.any(Number) });
    expect(s.groups.map((g) => g.name)).toEqual(['Balanzas']);
    const page = await t.app.inject({ url: '/api/products', query: { q: 'balan' } });
    expect(s.total).toBe(page.json().total);
    // The box promises nothing the page will not show: every suggestion is a result of the search page (the
    // order is the suggestions' own, decision 067: names that start with the words, in name order).
    const all = await t.app.inject({
      url: '/api/products',
      query: { q: 'balan', pageSize: String(PAGE_SIZE_MAX) },
    });
    const found = new Set(all.json().items.map((p: { code: string }) => p.code));
    expect(s.products.every((p) => found.has(p.code))).toBe(true);
    const names = s.products.map((p) => termKey(p.name));
    expect(names).toEqual([...names].sort());
  });

  it('offers brands whose name starts with a typed word, accents and case aside', async () => {
    expect((await suggest('quim')).brands.map((b) => b.name)).toEqual(['Quimiva']);
    expect((await suggest('POLIM')).brands.map((b) => b.name)).toEqual(['Polimérica']);
    expect((await suggest('matraz')).brands).toEqual([]);
  });

  it('finds codes and corrects typos like the search page, saying so', async () => {
    expect((await suggest('lbn-10001')).products[0]?.code).toBe('LBN-10001');
    const typo = await suggest('balansa');
    expect(typo.searchNote).toEqual({ kind: 'corrected', searched: 'balanza' });
    expect(typo.products.length).toBeGreaterThan(0);
  });

  it('shows a new price, name or withdrawal at the next suggestion, also for a prefix asked before', async () => {
    const first = await suggest('balan');
    const p = first.products[0]!;
    expect(await suggest('BALAN')).toEqual({ ...first, q: 'BALAN' });
    const db = t.database.db;
    await db.execute(sql`update products set price_cents = price_cents + 100 where code = ${p.code}`);
    expect((await suggest('balan')).products[0]).toMatchObject({
      code: p.code,
      priceCents: p.priceCents + 100,
    });
    await db.execute(sql`update products set name = 'Balanza A renombrada' where code = ${p.code}`);
    expect((await suggest('balan')).products.find((x) => x.code === p.code)?.name).toBe(
      'Balanza A renombrada',
    );
    await db.execute(sql`update products set active = false where code = ${p.code}`);
    const withdrawn = await suggest('balan');
    expect(withdrawn.products.map((x) => x.code)).not.toContain(p.code);
    expect(withdrawn.total).toBe(first.total - 1);
    await db.execute(
      sql`update products set active = true, name = ${p.name}, price_cents = ${p.priceCents} where code = ${p.code}`,
    );
    expect(await suggest('balan')).toEqual(first);
  });

  it('answers an empty suggestion, not unrelated products, for a word the catalogue lacks', async () => {
    const s = await suggest('permanganato');
    expect(s).toMatchObject({ total: 0, products: [], brands: [], groups: [] });
  });

  it('refuses fewer than 2 characters and more than 100 with a Spanish message', async () => {
    for (const q of ['b', ' b ', 'x'.repeat(101)]) {
      const res = await t.app.inject({ url: '/api/search/suggest', query: { q } });
      expect(res.statusCode, q).toBe(400);
      expect(res.json().error.message).toMatch(/caracteres|demasiado larga/);
    }
    const none = await t.app.inject({ url: '/api/search/suggest' });
    expect(none.statusCode).toBe(400);
  });

  it('never fails on hostile input', async () => {
    for (const q of ["'; drop table products; --", '<script>', '&&||!:*', '😀😀', '%_\\']) {
      const res = await t.app.inject({ url: '/api/search/suggest', query: { q } });
      expect(res.statusCode, q).toBe(200);
    }
  });
});

describe('suggestions from the prefix index (decision 067)', () => {
  beforeAll(async () => {
    await importRows([
      'ZHC-1L,Ácido clorhídrico 37 % grado ACS,REA-ACI,410.00,6,,1 L,7647-01-0,HCl',
      'ZCU-1,Sulfato de cobre pentahidratado,REA-SOL,380.00,4,,500 g,7758-99-8,CuSO₄·5H₂O',
      'ZHC-4L,Ácido clorhídrico 37 % grado ACS,REA-ACI,1290.00,2,ZHC-1L,4 L,7647-01-0,HCl',
      // Code order puts the inner-word match first; the name that starts with the word must still lead.
      'AAZ-1,Soporte para tubos de ñandú zafiro,VID-PRO,90.00,5,,,,',
      'ZZZ-9,Zafiro soporte de cristal ñandú,VID-PRO,95.00,5,,,,',
    ]);
  }, 60_000);

  it('finds a word at the start of the name and inside it, names that start with it first', async () => {
    const s = await suggest('zafir');
    expect(codes(s)).toEqual(['ZZZ-9', 'AAZ-1']);
    expect(s.total).toBe(2);
    expect(s.groups).toEqual([{ clas: 'VID-PRO', name: expect.any(String), count: 2 }]);
    // A short second word is checked on each match's row, a longer one is its own range of the index.
    expect(codes(await suggest('zafiro de'))).toEqual(['ZZZ-9', 'AAZ-1']);
    expect(codes(await suggest('tubos zafi'))).toEqual(['AAZ-1']);
    expect((await suggest('zafiro x')).total).toBe(0);
    const inner = await suggest('erlenm');
    expect(inner.products.length).toBeGreaterThan(0);
    expect(inner.products.every((p) => /\bErlenmeyer/.test(p.name))).toBe(true);
  });

  it('ignores accents, ñ and case both ways', async () => {
    const plain = await suggest('acido clorh');
    expect(plain.total).toBeGreaterThan(1);
    expect(plain.products.every((p) => /^Ácido clorhídrico/.test(p.name))).toBe(true);
    expect(await suggest('ÁCIDO CLORHÍ')).toEqual({ ...plain, q: 'ÁCIDO CLORHÍ' });
    expect(codes(await suggest('NANDU zafi'))).toEqual(['ZZZ-9', 'AAZ-1']);
    expect(codes(await suggest('ñandú'))).toEqual(['AAZ-1', 'ZZZ-9']);
    // A plural finds the singular's products, as the page's stemmer does, without a note.
    const plural = await suggest('Balanzas anal');
    expect(plural).toEqual({ ...(await suggest('balanza anal')), q: 'Balanzas anal' });
    expect(plural.products.length).toBeGreaterThan(0);
    expect(plural.searchNote).toBeNull();
  });

  it('puts an exact code, CAS number or formula first, and a presentation finds its family', async () => {
    for (const formula of ['CuSO₄·5H₂O', 'cuso4·5h2o', 'CuSO45H2O', 'cuso4']) {
      expect(codes(await suggest(formula)), formula).toEqual(['ZCU-1']);
    }
    expect(codes(await suggest('ZZZ-9'))[0]).toBe('ZZZ-9');
    expect(codes(await suggest('7647-01-0'))).toEqual(['ZHC-1L']);
    expect(codes(await suggest('hcl'))[0]).toBe('ZHC-1L');
    expect(codes(await suggest('HCl'))[0]).toBe('ZHC-1L');
    // The 4 L bottle is a presentation: its code finds the family's card, and it is never a card itself.
    const bottle = await suggest('ZHC-4L');
    expect(codes(bottle)).toEqual(['ZHC-1L']);
    expect(bottle.total).toBe(1);
    expect(codes(await suggest('clorhidrico'))).not.toContain('ZHC-4L');
    const start = await suggest('lbn-1000');
    expect(start.products.length).toBeGreaterThan(0);
    expect(codes(start).every((c) => c.startsWith('LBN-1000'))).toBe(true);
  });

  it("finds a product by the lab's synonyms, whole or still being typed, saying so", async () => {
    const canonical = await suggest('ácido clorhídrico');
    const whole = await suggest('Ácido Muriático');
    expect(whole).toEqual({
      ...canonical,
      q: 'Ácido Muriático',
      searchNote: { kind: 'synonym', searched: 'ácido clorhídrico' },
    });
    expect(whole.products.length).toBeGreaterThan(0);
    const typing = await suggest('acido muriat');
    expect(typing).toEqual({
      ...canonical,
      q: 'acido muriat',
      searchNote: { kind: 'synonym', searched: 'ácido clorhídrico' },
    });
    // A synonym staff add reaches the next keystroke.
    expect((await suggest('salfuman')).total).toBe(0);
    await t.database.db.execute(
      sql`insert into search_synonyms (term, term_key, canonical) values ('salfumán', 'salfuman', 'ácido clorhídrico')`,
    );
    expect((await suggest('salfum')).products).toEqual(canonical.products);
  });

  it('shows a new, renamed or withdrawn product at the next keystroke, also for a prefix asked before', async () => {
    expect((await suggest('gorgoj')).total).toBe(0);
    await importRows(['GRG-1,Gorgojo de prueba para colecciones,MIC-PET,50.00,3,,,,']);
    const added = await suggest('gorgoj');
    expect(codes(added)).toEqual(['GRG-1']);
    expect(added.groups.map((g) => g.clas)).toEqual(['MIC-PET']);
    const db = t.database.db;
    await db.execute(
      sql`update products set name = 'Escarabajo de prueba para colecciones' where code = 'GRG-1'`,
    );
    expect((await suggest('gorgoj')).total).toBe(0);
    expect(codes(await suggest('escarab'))).toEqual(['GRG-1']);
    // A price or stock change does not touch the index, and shows at once (the answer follows the version).
    await db.execute(sql`update products set price_cents = 6100, stock = 0 where code = 'GRG-1'`);
    expect((await suggest('escarab')).products[0]?.priceCents).toBe(6100);
    await db.execute(sql`update products set active = false where code = 'GRG-1'`);
    expect(await suggest('escarab')).toMatchObject({ total: 0, products: [], groups: [] });
    await db.execute(sql`update products set active = true where code = 'GRG-1'`);
    expect(codes(await suggest('escarab'))).toEqual(['GRG-1']);
    // A product that becomes a presentation of another is no longer a card of its own.
    await db.execute(sql`update products set family_code = 'ZZZ-9' where code = 'GRG-1'`);
    expect((await suggest('escarab')).total).toBe(0);
  });

  it('keeps the index equal to what the triggers would build afresh, after all those writes', async () => {
    const { rows } = await t.database.db.execute<{ stale: number }>(sql`
      with fresh as (
        select x.word, s.code, x.lcp from product_suggest s cross join lateral suggest_terms_of(s.words) x
      ), listed as (select code from products where active and family_code is null)
      select
        (select count(*) from (select word, code, lcp from product_suggest_terms except select * from fresh) a)::int +
        (select count(*) from (select * from fresh except select word, code, lcp from product_suggest_terms) b)::int +
        (select count(*) from (select code from listed except select code from product_suggest) c)::int +
        (select count(*) from (select code from product_suggest except select code from listed) d)::int as stale`);
    expect(rows[0]?.stale).toBe(0);
  });
});

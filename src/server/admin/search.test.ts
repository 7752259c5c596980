import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditRows,
  type CheckoutTestApp,
  createCheckoutApp,
  createShopper,
  createStaff,
  type Shopper,
} from '../../../tests/server/support/staff.ts';

let t: CheckoutTestApp;
let staff: Shopper;
beforeAll(async () => {
  t = await createCheckoutApp();
  staff = await createStaff(t);
}, 120_000);
afterAll(() => t.close());

const call = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
  cookie = staff.cookie,
) => t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload: payload as object } : {}) });
const search = async (q: string) => (await t.app.inject({ url: '/api/products', query: { q } })).json();

describe('the lab vocabulary in the back office', () => {
  it('starts with the seeded synonyms and is for staff only', async () => {
    const list = (await call('GET', '/api/admin/search/synonyms')).json();
    expect(list.items.map((s: { term: string }) => s.term)).toEqual(
      expect.arrayContaining(['ácido muriático', 'sosa cáustica', 'sulfuric acid']),
    );
    const shopper = await createShopper(t);
    expect((await call('GET', '/api/admin/search/synonyms', undefined, shopper.cookie)).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/api/admin/search/misses' })).statusCode).toBe(401);
  });

  it('a synonym staff add is used by the next search (cached plans follow), can be changed and removed; audited', async () => {
    // The 12-product test catalogue has matraces: a made-up shop word for them.
    expect((await search('frasco cónico')).searchNote ?? null).toBeNull();
    const created = await call('POST', '/api/admin/search/synonyms', {
      term: 'Frasco Cónico',
      canonical: 'matraz',
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as number;
    const found = await search('frasco conico');
    expect(found.searchNote).toEqual({ kind: 'synonym', searched: 'matraz' });
    expect(found.total).toBeGreaterThan(0);
    expect(found.items.every((i: { name: string }) => i.name.startsWith('Matraz'))).toBe(true);

    const dup = await call('POST', '/api/admin/search/synonyms', {
      term: 'frasco  conico',
      canonical: 'vaso',
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error.message).toBe('«frasco  conico» ya tiene un sinónimo');
    const same = await call('POST', '/api/admin/search/synonyms', { term: 'Matraz', canonical: 'matraz' });
    expect(same.statusCode).toBe(400);
    const blank = await call('POST', '/api/admin/search/synonyms', { term: ' ', canonical: '!!' });
    expect(blank.statusCode).toBe(400);

    expect(
      (await call('PUT', `/api/admin/search/synonyms/${id}`, { term: 'frasco cónico', canonical: 'vaso' }))
        .statusCode,
    ).toBe(200);
    expect((await search('frasco conico')).searchNote).toEqual({ kind: 'synonym', searched: 'vaso' });
    expect((await call('DELETE', `/api/admin/search/synonyms/${id}`)).statusCode).toBe(200);
    expect((await call('DELETE', `/api/admin/search/synonyms/${id}`)).statusCode).toBe(404);
    expect((await search('frasco conico')).searchNote ?? null).toBeNull();
    const audit = await auditRows(t, 'synonym', String(id));
    expect(audit.map((a) => a.action)).toEqual(['synonym.create', 'synonym.update', 'synonym.delete']);
  });

  it('lists the searches that found little, most asked first, without who asked', async () => {
    for (const q of ['ditizona', 'Ditizona', 'ninhidrina']) await search(q);
    await expect
      .poll(async () =>
        (await call('GET', '/api/admin/search/misses')).json().items.map((i: { term: string }) => i.term),
      )
      .toEqual(expect.arrayContaining(['ditizona', 'ninhidrina']));
    const body = (await call('GET', '/api/admin/search/misses?days=7')).json();
    const terms = body.items.map((i: { term: string }) => i.term);
    // 'frasco conico' (searched 3 times above, before its synonym) comes before ditizona (2) and ninhidrina (1).
    expect(terms.indexOf('ditizona')).toBeLessThan(terms.indexOf('ninhidrina'));
    const first = body.items.find((i: { term: string }) => i.term === 'ditizona');
    expect(first).toMatchObject({ term: 'ditizona', results: 0, searches: 2, days: 1 });
    expect(Object.keys(first).sort()).toEqual(['days', 'lastDay', 'results', 'searches', 'term']);
    expect((await call('GET', '/api/admin/search/misses?days=9999')).statusCode).toBe(400);
  });
});

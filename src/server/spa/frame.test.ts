import { eq } from 'drizzle-orm';
import { renderToString } from 'react-dom/server';
import { matchRoutes } from 'react-router';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRoutes, type LoadPage, type PageModule } from '@/client/app/routes.tsx';
import {
  createPageRenderer,
  PAGE_MARKER,
  PAGE_START,
  type PageBody,
  type PageFrame,
  routeMatcher,
} from '@/client/entry-server.tsx';
import { productsQuerySchema } from '@/shared/schemas/catalog.ts';
import { createTestApp, type TestApp } from '../../../tests/server/support/test-app.ts';
import { listProducts } from '../catalog/service.ts';
import { groups as dbGroups } from '../db/schema.ts';
import { catalogReads } from './catalog-reads.ts';
import { frameFor, splitTemplate } from './ssr.ts';

/**
 * The frame kept per route (docs/decisions/037): the page rendered alone and spliced into the frame's markup must be
 * byte for byte the markup of the whole tree — the browser hydrates against the whole tree, and React's useId values
 * and text separators depend on where each piece sits.
 */
const loadPage: LoadPage = (page) => import(`../../client/${page}`) as Promise<PageModule>;
const renderPage = createPageRenderer(loadPage);

let t: TestApp;
let codes: string[];
let groups: string[];

beforeAll(async () => {
  t = await createTestApp({ seedProducts: 60 });
  const reads = catalogReads(t.database.db);
  const list = await listProducts(t.database.db, productsQuerySchema.parse({}));
  codes = list.items.map((p) => p.code);
  groups = (await reads.groups()).map((g) => g.clas);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

async function bodyOf(address: string): Promise<PageBody> {
  const page = await renderPage(new URL(address, 'http://x'), catalogReads(t.database.db));
  return page.body();
}

/** The frame's markup cut at the page's place. */
async function frameMarkup(frame: PageFrame): Promise<[string, string]> {
  const framed = renderToString(await frame.element());
  const at = framed.indexOf(PAGE_MARKER);
  expect(at).toBeGreaterThan(0);
  expect(framed.indexOf(PAGE_MARKER, at + 1)).toBe(-1);
  return [framed.slice(0, at), framed.slice(at + PAGE_MARKER.length)];
}

/** The page's render without its frame: what React hoisted, and the page's markup. */
function alone(markup: string): [string, string] {
  const start = markup.indexOf(PAGE_START);
  expect(start).toBeGreaterThanOrEqual(0);
  expect(markup.endsWith('</div>')).toBe(true);
  return [markup.slice(0, start), markup.slice(start + PAGE_START.length, -'</div>'.length)];
}

describe('the page spliced into its kept frame is the whole render', () => {
  it('home, a group, a product, a search, a brand, the brands, a static page and the 404s', async () => {
    const addresses = [
      '/',
      `/grupos/${groups[0]}`,
      `/grupos/${groups[1]}?page=2`,
      `/productos/${codes[0]}`,
      `/productos/${codes[5]}`,
      '/busqueda/vaso',
      '/busqueda/%3Cscript%3E',
      '/todas_las_marcas',
      '/nosotros',
      '/sucursales',
      '/productos/NO-EXISTE-999',
      '/ruta/desconocida',
      '/nosotros/otra',
    ];
    let ids = 0;
    let hoists = 0;
    for (const address of addresses) {
      const body = await bodyOf(address);
      expect(body.frame, address).toBeDefined();
      const whole = renderToString(await body.element());
      const [before, after] = await frameMarkup(body.frame!);
      const [hoisted, page] = alone(renderToString(await body.frame!.page()));
      expect(hoisted + before + page + after, address).toBe(whole);
      expect(page.length, address).toBeGreaterThan(0);
      // useId's values (`_R_…_`) are among what must come out the same.
      ids += (page.match(/id="_R_/g) ?? []).length;
      // So are the preloads React hoists to the start (a listing's first photos).
      hoists += hoisted.length;
    }
    expect(ids).toBeGreaterThan(0);
    expect(hoists).toBeGreaterThan(0);
  });

  it('a route’s frame is the same whatever its parameters; a splat’s address is part of its key', async () => {
    for (const [a, b] of [
      [`/productos/${codes[1]}`, `/productos/${codes[2]}`],
      [`/grupos/${groups[0]}`, `/grupos/${groups[1]}`],
      ['/busqueda/vaso', '/busqueda/matraz'],
    ] as const) {
      const [first, second] = [await bodyOf(a), await bodyOf(b)];
      expect(first.frame!.key, a).toBe(second.frame!.key);
      expect(await frameMarkup(first.frame!), a).toEqual(await frameMarkup(second.frame!));
    }
    // Under /nosotros the header's 'Nosotros' link is active: another frame, another key.
    const [under, elsewhere] = [await bodyOf('/nosotros/otra'), await bodyOf('/ruta/otra')];
    expect(under.frame!.key).not.toBe(elsewhere.frame!.key);
    expect((await frameMarkup(under.frame!))[0]).not.toBe((await frameMarkup(elsewhere.frame!))[0]);
  });

  it('the cart (read from the visitor’s cookie) is rendered whole: no frame', async () => {
    expect((await bodyOf('/carrito')).frame).toBeUndefined();
    expect((await bodyOf('/ingresar')).frame).toBeUndefined();
  });

  it('a frame that does not give the whole render is not kept: the page is rendered whole', async () => {
    const body = await bodyOf(`/grupos/${groups[0]}`);
    const kept = new Map();
    const error = vi.fn();
    const log = { error } as never;
    const template = splitTemplate('<html><head></head><body><div id="root"></div></body></html>');
    // The page rendered at another position than Layout gives it (one array deeper): its useId values differ.
    const wrong: PageFrame = { ...body.frame!, page: async () => [null, await body.frame!.page()] };
    expect(await frameFor(template, kept, wrong, body.element, log)).toBeNull();
    expect(kept.get(wrong.key)).toBeNull();
    expect(error).toHaveBeenCalledOnce();
    // The right one is kept, and used again without rendering the frame.
    const right = { ...body.frame!, key: 'otra' };
    const made = await frameFor(template, kept, right, body.element, log);
    expect([made?.hoisted, made?.markup]).toEqual(alone(renderToString(await right.page())));
    const element = vi.fn(right.element);
    const again = await frameFor(template, kept, { ...right, element }, body.element, log);
    expect(again?.frame).toBe(made?.frame);
    expect(element).not.toHaveBeenCalled();
  });
});

describe('the menu kept per catalogue version', () => {
  it('is read once while the version holds; a renamed group shows at the next page', async () => {
    const reads = catalogReads(t.database.db);
    const first = await reads.groups();
    expect(await reads.groups()).toBe(first);
    const clas = first[0]!.clas;
    await t.database.db.update(dbGroups).set({ name: 'Vidriería renombrada' }).where(eq(dbGroups.clas, clas));
    const renamed = await reads.groups();
    expect(renamed).not.toBe(first);
    expect(renamed.find((g) => g.clas === clas)?.name).toBe('Vidriería renombrada');
    // …and so does a new frame: the menu's data is part of the frame's key.
    const before = first.find((g) => g.clas === clas)!.name;
    await t.database.db.update(dbGroups).set({ name: before }).where(eq(dbGroups.clas, clas));
    const [a, b] = [await bodyOf('/nosotros'), await bodyOf('/nosotros')];
    expect(a.frame!.key).toBe(b.frame!.key);
    expect(a.frame!.key).toContain(before);
  });
});

describe('route matching per first segment', () => {
  it('matches as React Router matches the whole table', () => {
    const routes = createRoutes(loadPage, 'server');
    const match = routeMatcher(routes);
    for (const path of [
      '/',
      '/productos/LBN-10001',
      '/PRODUCTOS/lbn-10001',
      '/product%6Fs/LBN-10001',
      '/productos/a%2Fb',
      '/productos',
      '/grupos/VID',
      '/busqueda/%E0%A4%A',
      '/nosotros',
      '/nosotros/',
      '/Nosotros',
      '/nosotros/otra',
      '/cuenta/pedidos/3',
      '/listas/compartida/abc',
      '/listas/xyz',
      '/admin',
      '/carrito',
      '/ruta/desconocida',
      '//doble',
      '/%',
    ]) {
      const ours = match(path)?.map((m) => [m.route.id, m.params, m.pathname]);
      const theirs = matchRoutes(routes, path)?.map((m) => [m.route.id, m.params, m.pathname]);
      expect(ours, path).toEqual(theirs);
    }
  });
});

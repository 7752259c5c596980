import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../client/app/route-table.ts';
import { SERVER_PAGES } from './server-pages.ts';

describe('SERVER_PAGES', () => {
  it('holds exactly the page modules of the server-rendered routes', () => {
    const rendered = new Set(ROUTES.filter((r) => r.render === 'server').map((r) => r.page));
    expect(Object.keys(SERVER_PAGES).sort()).toEqual([...rendered].sort());
  });
});

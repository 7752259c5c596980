import { count, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { productsQuerySchema } from '../../shared/schemas/catalog.ts';
import { seedDemoCatalogue } from '../catalog/demo/seed.ts';
import { listProducts } from '../catalog/listing.ts';
import { openDatabase } from './client.ts';
import { products } from './schema.ts';

/**
 * The embedded database (PGlite) is what `npm start` runs without DATABASE_URL. The API tests run on one engine
 * per run (PGlite locally, PostgreSQL in CI), so this file opens a new PGlite whatever that engine is: the
 * migrations from nothing, the extensions search needs, and migrations run again changing nothing. (The
 * browser journeys and `staff:create`'s test run the server and a script on a PGlite data folder.)
 */
describe('the embedded database (PGlite)', () => {
  it('migrates from nothing, searches with typo correction, and migrates again as a no-op', async () => {
    const database = await openDatabase({ dataDir: 'memory://' });
    try {
      expect(database.kind).toBe('pglite');
      await database.migrate();
      const { rows } = await database.db.execute<{ n: number }>(
        sql`select count(*)::int as n from pg_extension where extname in ('pg_trgm', 'unaccent')`,
      );
      expect(rows[0]!.n).toBe(2);
      await seedDemoCatalogue(database.db, { products: 40 });
      const search = await listProducts(database.db, productsQuerySchema.parse({ q: 'matras' }));
      expect(search.total).toBeGreaterThan(0);
      expect(search.items.every((p) => p.name.startsWith('Matraz'))).toBe(true);
      const [before] = await database.db.select({ n: count() }).from(products);
      await database.migrate();
      const [after] = await database.db.select({ n: count() }).from(products);
      expect(after!.n).toBe(before!.n);
    } finally {
      await database.close();
    }
  }, 120_000); // initdb and every migration from nothing: 30 s was not enough at load 29 (decision 025)
});

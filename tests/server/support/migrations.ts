import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import type { Db } from '../../../src/server/db/client.ts';

/**
 * Runs one committed migration's statements as Drizzle's migrator does (split at its breakpoints, in order), for
 * tests that take a populated database back to before that migration and run it again. Later migrations stay
 * applied, so the file is run directly instead of rolling the migrator's journal back (which would re-run them).
 */
export async function runMigrationFile(db: Db, file: string): Promise<void> {
  const text = readFileSync(new URL(`../../../src/server/db/migrations/${file}`, import.meta.url), 'utf8');
  for (const statement of text.split('--> statement-breakpoint')) {
    if (statement.trim()) await db.execute(sql.raw(statement));
  }
}

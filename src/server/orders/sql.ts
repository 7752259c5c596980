import type { SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

/** Raw SQL rows (the Db type is shared by both drivers, so execute() is untyped). */
export async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

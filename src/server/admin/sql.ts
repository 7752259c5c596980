import type { SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

/** Raw SQL rows (the Db type is shared by both drivers, so execute() is untyped). */
export async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

export const iso = (v: string | Date) => new Date(v).toISOString();
export const isoOrNull = (v: string | Date | null) => (v === null ? null : iso(v));

/** Start of a Mexico City day (UTC−6 all year since 2022, when DST was abolished). */
export const mexicoDayStart = (day: string) => new Date(`${day}T00:00:00-06:00`);

import { asc } from 'drizzle-orm';
import type { GroupTree } from '../../shared/schemas/catalog.ts';
import type { Db } from '../db/client.ts';
import { groups } from '../db/schema.ts';

/** The menu's tree: top-level groups in order, each with its sub-groups. */
export async function listGroupTree(db: Db): Promise<GroupTree[]> {
  const rows = await db.select().from(groups).orderBy(asc(groups.position), asc(groups.name));
  const top = rows.filter((g) => g.parentClas === null);
  return top.map((g) => ({
    clas: g.clas,
    name: g.name,
    subgroups: rows.filter((s) => s.parentClas === g.clas).map((s) => ({ clas: s.clas, name: s.name })),
  }));
}

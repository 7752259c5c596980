import { asc, eq, sql } from 'drizzle-orm';
import { mexicoCityToday, type Ymd } from '../../shared/mexico-time.ts';
import type { Db } from '../db/client.ts';
import { searchMisses, searchSynonyms } from '../db/schema.ts';
import { badRequest, conflict, notFound } from '../http/errors.ts';
import { catalogueVersion } from './selection-cache.ts';

/**
 * The lab's vocabulary (decision 020): synonyms staff keep in the back office ('ácido muriático' → 'ácido
 * clorhídrico', 'sosa cáustica' → 'hidróxido de sodio', 'sulfuric acid' → 'ácido sulfúrico'). A search whose
 * words contain a term is searched with the canonical words instead (the longest term wins where two overlap).
 */

/** A term as compared: lower case, no accents, letters and digits separated by single spaces. */
export function termKey(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

export type Synonym = { termKey: string; canonical: string };

const loaded = new WeakMap<Db, { version: string; list: Promise<Synonym[]> }>();

/**
 * Every synonym, longest term first, kept while the catalogue version holds (migration 0014 bumps the version on
 * any change of search_synonyms, as for products, so an edit reaches every instance's next search).
 */
export async function synonymsOf(db: Db): Promise<Synonym[]> {
  const version = await catalogueVersion(db);
  const hit = loaded.get(db);
  if (hit && hit.version === version) return hit.list;
  const list = db
    .select({ termKey: searchSynonyms.termKey, canonical: searchSynonyms.canonical })
    .from(searchSynonyms)
    .orderBy(sql`length(${searchSynonyms.termKey}) desc`, asc(searchSynonyms.termKey))
    .then((rows) => rows);
  loaded.set(db, { version, list });
  list.catch(() => {
    if (loaded.get(db)?.list === list) loaded.delete(db);
  });
  return list;
}

/**
 * The query with each synonym term (whole words) replaced by its canonical words, or null when none applies.
 * Compared on the folded words, so 'Ácido  Muriático' and 'acido muriatico' both match; at each word the
 * longest term wins, and canonical words are never rewritten again.
 */
export function applySynonyms(q: string, synonyms: readonly Synonym[]): string | null {
  const words = termKey(q).split(' ').filter(Boolean);
  if (words.length === 0 || synonyms.length === 0) return null;
  const terms = synonyms.map((s) => ({ words: s.termKey.split(' '), canonical: s.canonical }));
  const out: string[] = [];
  let changed = false;
  for (let i = 0; i < words.length; ) {
    // synonymsOf gives the longest terms first.
    const hit = terms.find((t) => t.words.every((w, k) => words[i + k] === w));
    if (hit) {
      out.push(hit.canonical);
      i += hit.words.length;
      changed = true;
    } else {
      out.push(words[i]!);
      i++;
    }
  }
  return changed ? out.join(' ') : null;
}

/** A search that found fewer than this is logged for purchasing (the back office's 'Búsquedas sin resultado'). */
export const LOW_RESULTS = 3;

/**
 * Logs a zero- or low-result search: the folded words, what it found, the day (Mexico City) — nothing about
 * who searched. One row per term and day, counting its searches.
 */
export async function recordMiss(db: Db, q: string, results: number): Promise<void> {
  const term = termKey(q).slice(0, 100);
  if (term === '') return;
  await db
    .insert(searchMisses)
    .values({ day: sql`(now() at time zone 'America/Mexico_City')::date`, term, results, searches: 1 })
    .onConflictDoUpdate({
      target: [searchMisses.day, searchMisses.term],
      set: { results, searches: sql`${searchMisses.searches} + 1` },
    });
}

export type MissRow = { term: string; results: number; searches: number; days: number; lastDay: string };

/**
 * The back office's list (and the dashboard's first `limit`): terms of the last `days` Mexico City days up to
 * `today` (default: today), most searched first.
 */
export async function listMisses(
  db: Db,
  days = 30,
  { limit = 200, today }: { limit?: number; today?: Ymd } = {},
): Promise<MissRow[]> {
  const { rows } = await db.execute<MissRow>(sql`
    select term, (array_agg(results order by day desc))[1]::int as results, sum(searches)::int as searches,
      count(*)::int as days, max(day)::text as "lastDay"
    from ${searchMisses}
    where day > ${today ?? mexicoCityToday()}::date - ${days}::int and day <= ${today ?? mexicoCityToday()}::date
    group by term
    order by sum(searches) desc, max(day) desc, term
    limit ${limit}`);
  return rows;
}

/** The back office's list of synonyms, alphabetical. */
export async function listSynonyms(db: Db) {
  const rows = await db.select().from(searchSynonyms).orderBy(asc(searchSynonyms.termKey));
  return rows.map((r) => ({
    id: r.id,
    term: r.term,
    canonical: r.canonical,
    updatedAt: r.updatedAt.toISOString(),
  }));
}

export type SynonymWrite = { term: string; canonical: string };

/** Staff add, change or remove a synonym (the caller audits it). A term already there is a 409. */
export async function saveSynonym(db: Db, id: number | null, input: SynonymWrite) {
  const key = termKey(input.term);
  if (key === termKey(input.canonical)) {
    throw badRequest('El término y el nombre en el catálogo son iguales', {
      canonical: 'Escriba el nombre con el que el catálogo llama al producto',
    });
  }
  const [clash] = await db
    .select({ id: searchSynonyms.id })
    .from(searchSynonyms)
    .where(eq(searchSynonyms.termKey, key))
    .limit(1);
  if (clash && clash.id !== id) throw conflict(`«${input.term}» ya tiene un sinónimo`);
  const values = { term: input.term, termKey: key, canonical: input.canonical, updatedAt: new Date() };
  if (id === null) {
    const [row] = await db.insert(searchSynonyms).values(values).returning();
    return row!;
  }
  const [row] = await db.update(searchSynonyms).set(values).where(eq(searchSynonyms.id, id)).returning();
  if (!row) throw notFound('Sinónimo no encontrado');
  return row;
}

export async function deleteSynonym(db: Db, id: number) {
  const [row] = await db.delete(searchSynonyms).where(eq(searchSynonyms.id, id)).returning();
  if (!row) throw notFound('Sinónimo no encontrado');
  return row;
}

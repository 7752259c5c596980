import { and, eq, isNull, max, sql } from 'drizzle-orm';
import { shop } from '../../shared/shop.ts';
import type { Db, Tx } from '../db/client.ts';
import { cfdiFolioSeries, cfdiFreeFolios, invoices } from '../db/schema.ts';

/**
 * Folios per series (decision 047): each document type has its own series (config/shop.json → invoicing.series)
 * and its own gap-free count. A folio is taken in the transaction that claims the document, so a claim that rolls
 * back takes none; it stays with the document through stamping, retries and crash recovery (it is in the sealed
 * XML); and a document the PAC never stamped (refused, not sealed, dropped) gives it back, to be taken first by
 * the next document of the series. Folios of a series are therefore 1, 2, 3… with none skipped or used twice,
 * though a given-back folio may go to a later document.
 */

export type DocumentKind = 'I' | 'E' | 'P';

/** The series of a CFDI de ingreso (invoice), de egreso (credit note) or de pago (decision 060). */
export const seriesOf = (kind: DocumentKind): string =>
  kind === 'I'
    ? shop.invoicing.series.ingreso
    : kind === 'E'
      ? shop.invoicing.series.egreso
      : shop.invoicing.series.pago;

export type Folio = { serie: string; folio: number };

/** The next folio of the document type's series, inside the claiming transaction (`tx`). */
export async function takeFolio(tx: Tx, kind: DocumentKind): Promise<Folio> {
  const serie = seriesOf(kind);
  // A folio given back by a document never stamped goes first; SKIP LOCKED lets a concurrent claim take the next.
  const freed = await tx.execute<{ folio: number }>(sql`
    delete from ${cfdiFreeFolios}
    where ${cfdiFreeFolios.series} = ${serie} and ${cfdiFreeFolios.folio} = (
      select f.folio from ${cfdiFreeFolios} f where f.series = ${serie}
      order by f.folio limit 1 for update skip locked)
    returning ${cfdiFreeFolios.folio} as folio`);
  const reused = freed.rows[0];
  if (reused) return { serie, folio: Number(reused.folio) };
  // Documents issued before the series had a counter numbered themselves by their row id: the count starts after
  // them, so no folio is printed twice. The counter's row lock orders concurrent claims until they commit.
  // CFDI de pago never numbered themselves (decision 060): their count starts at 1.
  const [legacy] =
    kind === 'P'
      ? [{ last: 0 }]
      : await tx
          .select({ last: max(invoices.id) })
          .from(invoices)
          .where(and(isNull(invoices.folio), eq(invoices.kind, kind)));
  const [row] = await tx
    .insert(cfdiFolioSeries)
    .values({ series: serie, lastFolio: (legacy?.last ?? 0) + 1 })
    .onConflictDoUpdate({
      target: cfdiFolioSeries.series,
      set: { lastFolio: sql`${cfdiFolioSeries.lastFolio} + 1` },
    })
    .returning({ folio: cfdiFolioSeries.lastFolio });
  return { serie, folio: row!.folio };
}

/** Gives back the folio of a document that was never stamped (in the transaction that drops it). */
export async function releaseFolio(db: Db | Tx, folio: { serie: string | null; folio: number | null }) {
  if (folio.serie === null || folio.folio === null) return;
  await db.insert(cfdiFreeFolios).values({ series: folio.serie, folio: folio.folio }).onConflictDoNothing();
}

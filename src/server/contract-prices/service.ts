import { asc, eq, inArray } from 'drizzle-orm';
import type { ContractPriceList, ContractPricesBody } from '../../shared/schemas/contract-prices.ts';
import { type Actor, writeAudit } from '../audit/log.ts';
import type { Db } from '../db/client.ts';
import { institutionPrices, institutions, products } from '../db/schema.ts';
import { badRequest, notFound } from '../http/errors.ts';

/** Staff's list of an institution's contract prices (decision 059): read, and replaced whole in one transaction. */

const NOT_FOUND = 'Institución no encontrada';

export async function contractPriceList(db: Db, institutionId: number): Promise<ContractPriceList> {
  const [inst] = await db
    .select({ razonSocial: institutions.razonSocial })
    .from(institutions)
    .where(eq(institutions.id, institutionId));
  if (!inst) throw notFound(NOT_FOUND);
  const rows = await db
    .select({
      code: institutionPrices.productCode,
      name: products.name,
      listPriceCents: products.priceCents,
      priceCents: institutionPrices.priceCents,
      validFrom: institutionPrices.validFrom,
      validTo: institutionPrices.validTo,
    })
    .from(institutionPrices)
    .innerJoin(products, eq(products.code, institutionPrices.productCode))
    .where(eq(institutionPrices.institutionId, institutionId))
    .orderBy(asc(institutionPrices.productCode), asc(institutionPrices.validFrom));
  return { institution: inst.razonSocial, prices: rows };
}

/**
 * PUT: the institution's whole list. Refused with 400 naming the rows at fault (an unknown code, the same code
 * and start twice) before anything changes; recorded in the audit log with the counts.
 */
export async function replaceContractPrices(
  db: Db,
  actor: Actor,
  institutionId: number,
  body: ContractPricesBody,
): Promise<ContractPriceList> {
  const codes = [...new Set(body.prices.map((p) => p.code))];
  const seen = new Set<string>();
  for (const [i, p] of body.prices.entries()) {
    const key = `${p.code}|${p.validFrom}`;
    if (seen.has(key))
      throw badRequest(`El producto ${p.code} tiene dos precios que empiezan el ${p.validFrom}`, {
        [`prices.${i}.validFrom`]: 'Vigencia repetida',
      });
    seen.add(key);
  }
  await db.transaction(async (tx) => {
    const [inst] = await tx
      .select({ id: institutions.id })
      .from(institutions)
      .where(eq(institutions.id, institutionId))
      .for('update');
    if (!inst) throw notFound(NOT_FOUND);
    const known = new Set(
      codes.length === 0
        ? []
        : (await tx.select({ code: products.code }).from(products).where(inArray(products.code, codes))).map(
            (p) => p.code,
          ),
    );
    const unknown = codes.filter((c) => !known.has(c));
    if (unknown.length > 0)
      throw badRequest(
        `Códigos que no están en el catálogo: ${unknown.slice(0, 10).join(', ')}${unknown.length > 10 ? '…' : ''}`,
      );
    const before = await tx
      .delete(institutionPrices)
      .where(eq(institutionPrices.institutionId, institutionId))
      .returning({ id: institutionPrices.id });
    if (body.prices.length > 0)
      await tx.insert(institutionPrices).values(
        body.prices.map((p) => ({
          institutionId,
          productCode: p.code,
          priceCents: p.priceCents,
          validFrom: p.validFrom,
          validTo: p.validTo,
          createdBy: actor.userId,
        })),
      );
    await writeAudit(tx, actor, {
      action: 'institution.contract_prices',
      entityType: 'institution',
      entityId: institutionId,
      before: { prices: before.length },
      after: { prices: body.prices.length },
    });
  });
  return contractPriceList(db, institutionId);
}

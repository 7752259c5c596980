import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { DECLARATION_TEXTS, DECLARATION_VERSION, type DeclarationVersion } from '../../shared/controlled.ts';
import type { ControlledDeclarationInput } from '../../shared/schemas/controlled.ts';
import type { Db, Tx } from '../db/client.ts';
import { controlledDeclarations, type DeclaredProduct, fiscalProfiles, products } from '../db/schema.ts';
import { conflict } from '../http/errors.ts';

/**
 * Controlled chemicals (decision 030): the one home of the rule «a controlled product is ordered only by a buyer
 * with an RFC on file who declares its end use». Checkout calls it inside the order's transaction, for a cart and
 * for a quotation's conversion alike, before anything is reserved.
 */

export const RFC_REQUIRED =
  'Su pedido incluye productos controlados ({products}): registre su RFC en «Mis datos fiscales» (/cuenta/fiscales) antes de comprarlos.';
export const DECLARATION_REQUIRED =
  'Su pedido incluye productos controlados ({products}): escriba el uso final declarado y acepte la declaración bajo protesta de decir verdad.';
export const DECLARATION_OUTDATED =
  'El texto de la declaración de uso final cambió. Recargue la página, léalo y acéptelo de nuevo.';

/** The controlled products among these codes, with the name the order line shows. */
export async function controlledAmong(db: Db | Tx, codes: readonly string[]) {
  if (codes.length === 0) return [];
  const rows = await db
    .select({ code: products.code, name: products.name, label: products.presentationLabel })
    .from(products)
    .where(and(inArray(products.code, [...new Set(codes)]), eq(products.controlled, true)));
  return rows.map((r) => ({ code: r.code, name: r.label ? `${r.name}, ${r.label}` : r.name }));
}

/** Which fiscal profile's RFC applies: the one chosen for 'Facturar esta compra', else the buyer's default one. */
async function profileFor(tx: Tx, userId: number, invoiceProfileId: number | undefined) {
  const [row] = await tx
    .select({
      id: fiscalProfiles.id,
      rfc: fiscalProfiles.rfc,
      nombreFiscal: fiscalProfiles.nombreFiscal,
    })
    .from(fiscalProfiles)
    .where(
      and(
        eq(fiscalProfiles.userId, userId),
        invoiceProfileId === undefined ? undefined : eq(fiscalProfiles.id, invoiceProfileId),
      ),
    )
    .orderBy(desc(fiscalProfiles.isDefault), asc(fiscalProfiles.id))
    .limit(1);
  return row ?? null;
}

export type DeclarationRecord = Omit<
  typeof controlledDeclarations.$inferInsert,
  'orderNumber' | 'acceptedAt'
>;

/**
 * The order's lines against the rule: null when none is controlled; else the declaration to keep with the order,
 * or a 409 in Spanish (no RFC on file, no declaration, an outdated text). The declared use itself was validated by
 * the request's schema (src/shared/controlled.ts).
 */
export async function checkControlledPurchase(
  tx: Tx,
  input: {
    userId: number;
    lines: readonly { code: string; name: string; quantity: number }[];
    invoiceProfileId: number | undefined;
    declaration: ControlledDeclarationInput | undefined;
  },
): Promise<DeclarationRecord | null> {
  const controlled = await controlledAmong(
    tx,
    input.lines.map((l) => l.code),
  );
  if (controlled.length === 0) return null;
  const codes = new Set(controlled.map((c) => c.code));
  const declared: DeclaredProduct[] = input.lines
    .filter((l) => codes.has(l.code))
    .map((l) => ({ code: l.code, name: l.name, quantity: l.quantity }));
  const names = declared.map((d) => d.name).join('; ');
  const profile = await profileFor(tx, input.userId, input.invoiceProfileId);
  if (!profile) throw conflict(RFC_REQUIRED.replace('{products}', names), 'rfc_required');
  const d = input.declaration;
  if (!d) throw conflict(DECLARATION_REQUIRED.replace('{products}', names), 'declaration_required');
  if (d.textVersion !== DECLARATION_VERSION) throw conflict(DECLARATION_OUTDATED, 'declaration_outdated');
  return {
    userId: input.userId,
    products: declared,
    rfc: profile.rfc,
    razonSocial: profile.nombreFiscal,
    fiscalProfileId: profile.id,
    declaredUse: d.declaredUse,
    textVersion: d.textVersion,
    acceptedText: DECLARATION_TEXTS[d.textVersion as DeclarationVersion],
  };
}

/** Kept with the order, in the order's transaction. */
export async function recordDeclaration(tx: Tx, orderNumber: number, record: DeclarationRecord) {
  await tx.insert(controlledDeclarations).values({ orderNumber, ...record });
}

/** The declaration of one order (staff order screen), or null. */
export async function declarationOf(db: Db, orderNumber: number) {
  const [row] = await db
    .select()
    .from(controlledDeclarations)
    .where(eq(controlledDeclarations.orderNumber, orderNumber));
  return row
    ? {
        products: row.products,
        rfc: row.rfc,
        razonSocial: row.razonSocial,
        declaredUse: row.declaredUse,
        textVersion: row.textVersion,
        acceptedText: row.acceptedText,
        acceptedAt: row.acceptedAt.toISOString(),
      }
    : null;
}

/**
 * Presentations carry their family's flag (decision 030: the law controls the substance, not the bottle size).
 * After a write that may have changed a base's flag or a row's family: every presentation of these bases (all
 * bases when omitted) takes its base's value.
 */
export async function syncFamilyControlled(tx: Db | Tx, baseCodes?: readonly string[]) {
  if (baseCodes && baseCodes.length === 0) return;
  await tx.execute(sql`update ${products} p set controlled = b.controlled
    from ${products} b
    where p.family_code = b.code and p.controlled <> b.controlled
    ${
      baseCodes
        ? sql`and b.code in (${sql.join(
            baseCodes.map((c) => sql`${c}`),
            sql`, `,
          )})`
        : sql``
    }`);
}

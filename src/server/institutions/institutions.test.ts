import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addMember,
  buyFor,
  createInstitution,
  FISCAL,
  memberRow,
} from '../../../tests/server/support/institutions.ts';
import {
  auditRows,
  type CheckoutTestApp,
  createCheckoutApp,
  createShopper,
  createStaff,
  outbox,
  type Shopper,
} from '../../../tests/server/support/staff.ts';
import { institutionInvitations, institutions } from '../db/schema.ts';
import { INVITATION_USED } from './invitations.ts';
import { LAST_ADMINISTRADOR } from './members.ts';

// Runs on in-memory PGlite, and on PostgreSQL with TEST_DATABASE_URL.
let t: CheckoutTestApp;
let staff: Shopper;
beforeAll(async () => {
  t = await createCheckoutApp();
  staff = await createStaff(t);
});
afterAll(() => t.close());

const inject = (
  who: Shopper | null,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
) =>
  t.app.inject({ method, url, headers: who ? { cookie: who.cookie } : {}, ...(payload ? { payload } : {}) });

/** The invitation link mailed to `email` (the newest), as the person clicks it. */
async function invitationToken(email: string) {
  const mails = (await outbox(t, 'institution-invitation')).filter((m) => m.to === email);
  const link = /\/cuenta\/instituciones\/invitacion\/([A-Za-z0-9_-]{43})/.exec(mails.at(-1)?.text ?? '');
  if (!link) throw new Error(`no invitation mail to ${email}`);
  return link[1]!;
}

describe('instituciones: alta por el personal', () => {
  it('creates an institution with the invoice form’s SAT rules, invites its administrador by mail, and audits it', async () => {
    const admin = await createShopper(t);
    const res = await inject(staff, 'POST', '/api/admin/institutions', {
      ...FISCAL,
      rfc: 'lqb150101ab3',
      billingEmail: 'cxp@uto.example.mx',
      adminEmail: admin.email.toUpperCase(),
    });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json<{ id: number; rfc: string; razonSocial: string; verified: boolean }>();
    expect(created).toMatchObject({ rfc: 'LQB150101AB3', razonSocial: FISCAL.nombreFiscal, verified: false });

    const [mail] = (await outbox(t, 'institution-invitation')).filter((m) => m.to === admin.email);
    expect(mail?.subject).toBe(`Invitación para comprar a nombre de ${FISCAL.nombreFiscal}`);
    expect(mail?.text).toContain('Administrador');
    const token = await invitationToken(admin.email);
    const [stored] = await t.db
      .select()
      .from(institutionInvitations)
      .where(eq(institutionInvitations.institutionId, created.id));
    expect(stored?.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(token);

    const preview = await inject(null, 'GET', `/api/institutions/invitations/${token}`);
    expect(preview.json()).toMatchObject({ institution: FISCAL.nombreFiscal, role: 'administrador' });
    const accepted = await inject(admin, 'POST', `/api/institutions/invitations/${token}/accept`);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect((await memberRow(t, created.id, admin.id))?.role).toBe('administrador');

    expect(
      (await inject(staff, 'POST', `/api/admin/institutions/${created.id}/verify`)).json().verified,
    ).toBe(true);
    const terms = await inject(staff, 'PUT', `/api/admin/institutions/${created.id}/terms`, {
      creditLimit: '150,000.50',
      creditDays: 30,
      requiresPurchaseOrder: true,
      costCentreLabel: 'Centro de costos',
      projectLabel: 'Proyecto CONAHCYT',
    });
    expect(terms.statusCode, terms.body).toBe(200);
    expect(terms.json()).toMatchObject({
      creditLimitCents: 15_000_050,
      creditDays: 30,
      requiresPurchaseOrder: true,
    });

    const list = await inject(staff, 'GET', '/api/admin/institutions?q=lqb150101');
    expect(list.json().items.map((i: { id: number }) => i.id)).toContain(created.id);

    const trail = await inject(admin, 'GET', `/api/institutions/${created.id}/audit`);
    expect(trail.statusCode).toBe(200);
    expect(trail.json().items.map((i: { action: string; actor: string }) => [i.action, i.actor])).toEqual([
      ['institution.terms', staff.email],
      ['institution.verify', staff.email],
      ['institution.join', admin.email],
      ['institution.invite', staff.email],
      ['institution.create', staff.email],
    ]);
  });

  it('refuses a bad fiscal identity with the invoice form’s messages, and terms that are half a credit line', async () => {
    const before = (await t.db.select({ n: sql<number>`count(*)::int` }).from(institutions))[0]!.n;
    for (const [payload, field, message] of [
      [{ ...FISCAL, rfc: 'XAXX010101000' }, 'rfc', 'No es posible facturar a un RFC genérico'],
      [{ ...FISCAL, cp: '441' }, 'cp', 'El código postal debe tener 5 dígitos'],
      [{ ...FISCAL, regimenFiscal: '999' }, 'regimenFiscal', 'Seleccione un régimen fiscal de la lista'],
      [{ ...FISCAL, nombreFiscal: 'Universidad del Norte SA de CV' }, 'nombreFiscal', 'régimen de capital'],
    ] as const) {
      const res = await inject(staff, 'POST', '/api/admin/institutions', payload);
      expect(res.statusCode, field).toBe(400);
      expect(res.json().error.fields[field]).toContain(message);
    }
    expect((await t.db.select({ n: sql<number>`count(*)::int` }).from(institutions))[0]!.n).toBe(before);

    const inst = await createInstitution(t);
    const half = await inject(staff, 'PUT', `/api/admin/institutions/${inst.id}/terms`, {
      creditLimit: '50000',
      requiresPurchaseOrder: false,
      costCentreLabel: 'Centro de costos',
      projectLabel: 'Proyecto',
    });
    expect(half.statusCode).toBe(400);
    expect(half.json().error.message).toContain('límite y días de crédito');
    const days = await inject(staff, 'PUT', `/api/admin/institutions/${inst.id}/terms`, {
      creditLimit: '50000',
      creditDays: 20,
      requiresPurchaseOrder: false,
      costCentreLabel: 'Centro de costos',
      projectLabel: 'Proyecto',
    });
    expect(days.json().error.fields.creditDays).toContain('15, 30, 45, 60, 90');
    const shopper = await createShopper(t);
    expect((await inject(shopper, 'GET', '/api/admin/institutions')).statusCode).toBe(403);
    expect((await inject(null, 'POST', '/api/admin/institutions', FISCAL)).statusCode).toBe(401);
  });
});

describe('invitaciones de un solo uso', () => {
  it('a link works once, for the invited e-mail only, within 7 days; a new invitation revokes the pending one', async () => {
    const inst = await createInstitution(t);
    const admin = await createShopper(t);
    await addMember(t, inst.id, admin, 'administrador');
    const invitee = await createShopper(t);
    const stranger = await createShopper(t);
    const invite = (email: string) =>
      inject(admin, 'POST', `/api/institutions/${inst.id}/invitations`, {
        email,
        role: 'comprador',
        orderLimit: '20000',
        monthlyLimit: '',
      });

    expect((await invite(invitee.email)).statusCode).toBe(201);
    const first = await invitationToken(invitee.email);
    expect((await invite(invitee.email)).statusCode).toBe(201);
    const second = await invitationToken(invitee.email);
    const revoked = await inject(invitee, 'POST', `/api/institutions/invitations/${first}/accept`);
    expect(revoked.statusCode).toBe(410);
    expect(revoked.json().error.message).toContain('retiró esta invitación');

    const wrong = await inject(stranger, 'POST', `/api/institutions/invitations/${second}/accept`);
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().error.message).toMatch(/^Esta invitación es para .…@example\.com\. Cierre sesión/);
    expect(await memberRow(t, inst.id, stranger.id)).toBeUndefined();
    expect((await inject(null, 'POST', `/api/institutions/invitations/${second}/accept`)).statusCode).toBe(
      401,
    );

    const ok = await inject(invitee, 'POST', `/api/institutions/invitations/${second}/accept`);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await memberRow(t, inst.id, invitee.id)).toMatchObject({
      role: 'comprador',
      orderLimitCents: 2_000_000,
    });
    const again = await inject(invitee, 'POST', `/api/institutions/invitations/${second}/accept`);
    expect(again.statusCode).toBe(410);
    expect(again.json().error.message).toBe(INVITATION_USED);
    expect((await invite(invitee.email)).json().error.message).toContain('ya es miembro');

    const late = await createShopper(t);
    await invite(late.email);
    const lateToken = await invitationToken(late.email);
    await t.db
      .update(institutionInvitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(institutionInvitations.email, late.email));
    const expired = await inject(late, 'POST', `/api/institutions/invitations/${lateToken}/accept`);
    expect(expired.statusCode).toBe(410);
    expect(expired.json().error.message).toMatch(/^Esta invitación venció el \d+ de \w+ de \d{4}/);
    const unknown = await inject(late, 'GET', `/api/institutions/invitations/${'x'.repeat(43)}`);
    expect(unknown.statusCode).toBe(404);
    expect((await inject(late, 'GET', '/api/institutions/invitations/corto')).statusCode).toBe(400);
    const huge = await buyFor(t, late, 2 ** 40);
    expect(huge.statusCode).toBe(400);
    expect(huge.json().error.message).toBe('Institución no encontrada');
  });
});

describe('miembros', () => {
  it('keeps the last administrador; removal takes effect on the next request and stays in the trail', async () => {
    const inst = await createInstitution(t);
    const admin = await createShopper(t);
    const buyer = await createShopper(t);
    await addMember(t, inst.id, admin, 'administrador');
    await addMember(t, inst.id, buyer, 'comprador');
    const demote = await inject(admin, 'PUT', `/api/institutions/${inst.id}/members/${admin.id}`, {
      role: 'comprador',
    });
    expect(demote.statusCode).toBe(409);
    expect(demote.json().error.message).toBe(LAST_ADMINISTRADOR);
    expect(
      (await inject(admin, 'DELETE', `/api/institutions/${inst.id}/members/${admin.id}`)).json().error
        .message,
    ).toBe(LAST_ADMINISTRADOR);

    const limits = await inject(admin, 'PUT', `/api/institutions/${inst.id}/members/${buyer.id}`, {
      role: 'comprador',
      orderLimit: '5,000',
      monthlyLimit: '12000.50',
    });
    expect(limits.statusCode, limits.body).toBe(200);
    const members = (await inject(admin, 'GET', `/api/institutions/${inst.id}/members`)).json();
    expect(members.members.find((m: { userId: number }) => m.userId === buyer.id)).toMatchObject({
      orderLimitCents: 500_000,
      monthlyLimitCents: 1_200_050,
      spentThisMonthCents: 0,
    });
    expect(
      (await inject(admin, 'PUT', `/api/institutions/${inst.id}/members/${buyer.id}`, { role: 'jefe' }))
        .statusCode,
    ).toBe(400);

    expect((await buyFor(t, buyer, inst.id)).json().activeId).toBe(inst.id);
    expect(
      (await inject(admin, 'DELETE', `/api/institutions/${inst.id}/members/${buyer.id}`)).statusCode,
    ).toBe(200);
    expect((await memberRow(t, inst.id, buyer.id))?.removedAt).not.toBeNull();
    const mine = (await inject(buyer, 'GET', '/api/institutions/mine')).json();
    expect(mine).toEqual({ memberships: [], activeId: null });
    expect((await inject(buyer, 'GET', `/api/institutions/${inst.id}`)).statusCode).toBe(404);

    const trail = await auditRows(t, 'institution', String(inst.id));
    expect(trail.map((r) => [r.action, r.actor_label])).toEqual([
      ['institution.member_update', admin.email],
      ['institution.member_remove', admin.email],
    ]);
    expect(trail[1]?.before).toMatchObject({ email: buyer.email, role: 'comprador' });
  });

  it('shared addresses: every member reads them, addresses.manage changes them, validated as a person’s', async () => {
    const inst = await createInstitution(t);
    const admin = await createShopper(t);
    const asker = await createShopper(t);
    await addMember(t, inst.id, admin, 'administrador');
    await addMember(t, inst.id, asker, 'solicitante');
    const address = {
      alias: 'Campus Norte — Laboratorio 3',
      nombreEnvio: 'Almacén de Ciencias Químicas',
      telefonoEnvio: '3312345678',
      cpEnvio: '45100',
      calleEnvio: 'Avenida Universidad',
      numExtEnvio: '1500',
      numIntEnvio: '',
      coloniaEnvio: 'Ciudad Universitaria',
      municipioEnvio: 'Zapopan',
      ciudadEnvio: 'Zapopan',
      estadoEnvio: 'Jalisco',
      paisEnvio: 'México',
    };
    const saved = await inject(admin, 'POST', `/api/institutions/${inst.id}/addresses`, address);
    expect(saved.statusCode, saved.body).toBe(201);
    const bad = await inject(admin, 'POST', `/api/institutions/${inst.id}/addresses`, {
      ...address,
      cpEnvio: '4510',
    });
    expect(bad.statusCode).toBe(400);
    expect((await inject(asker, 'POST', `/api/institutions/${inst.id}/addresses`, address)).statusCode).toBe(
      403,
    );
    const read = await inject(asker, 'GET', `/api/institutions/${inst.id}/addresses`);
    expect(read.json().addresses.map((a: { alias: string }) => a.alias)).toEqual([address.alias]);
  });
});

describe('cotizaciones y listas compartidas', () => {
  it('a quotation made for an institution is addressed to it and shared with its members only', async () => {
    const inst = await createInstitution(t, {
      razonSocial: 'Hospital Regional de Prueba',
      rfc: 'EKU9003173C9',
    });
    const asker = await createShopper(t);
    const buyer = await createShopper(t);
    const outsider = await createShopper(t);
    await addMember(t, inst.id, asker, 'solicitante');
    await addMember(t, inst.id, buyer, 'comprador');
    const [product] = await t.db
      .execute<{ code: string }>(sql`select code from products where active limit 1`)
      .then((r) => r.rows);
    await buyFor(t, asker, inst.id);
    const made = await inject(asker, 'POST', '/api/quotations', {
      items: [{ code: product!.code, quantity: 2 }],
    });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json()).toMatchObject({ institution: 'Hospital Regional de Prueba', rfc: 'EKU9003173C9' });
    const folio = made.json().folio as string;

    // Another member sees it while buying for the institution, not in their personal quotations.
    expect((await inject(buyer, 'GET', `/api/quotations/${folio}`)).statusCode).toBe(404);
    await buyFor(t, buyer, inst.id);
    expect((await inject(buyer, 'GET', `/api/quotations/${folio}`)).statusCode).toBe(200);
    // Its maker buying for themself does not see it among their own either; an outsider never.
    await buyFor(t, asker, null);
    expect((await inject(asker, 'GET', '/api/quotations')).json().quotations).toEqual([]);
    expect((await buyFor(t, outsider, inst.id)).statusCode).toBe(403);
    expect((await inject(outsider, 'GET', `/api/quotations/${folio}`)).statusCode).toBe(404);
  });
});

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { messageSchema } from '../../shared/schemas/common.ts';
import {
  adminInstitutionDetailSchema,
  adminInstitutionListSchema,
  institutionCreateSchema,
  institutionListQuerySchema,
  institutionParamsSchema,
  institutionTermsSchema,
  institutionViewSchema,
  invitationCreateSchema,
  invitationParamsSchema,
} from '../../shared/schemas/institutions.ts';
import { staffActor } from '../admin/context.ts';
import { requireStaff } from '../admin/guard.ts';
import { pagesOf, pageWindow } from '../admin/paging.ts';
import { loadPostalCatalogue } from '../invoices/postal-codes.ts';
import {
  checkPostalCode,
  createInstitution,
  institutionById,
  institutionDetail,
  listInstitutions,
  setTerms,
  verifyInstitution,
} from './institutions.ts';
import { createInvitation, revokeInvitation } from './invitations.ts';

/**
 * Staff's back office of institutions (/api/admin/institutions, registered inside adminRoutes, whose hook lets only
 * staff in): create from a fiscal identity, search, verify, set the terms, invite administradores.
 */
export const institutionAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['administración'];
  const postalCodes = loadPostalCatalogue(app.config.invoicing.postalCodesFile);
  const staffInviter = async (request: Parameters<typeof requireStaff>[0]) => {
    const staff = await requireStaff(request);
    return {
      actor: await staffActor(request),
      userId: staff.id,
      name: `${staff.nombre} ${staff.apellidoPat}`.trim(),
    };
  };

  app.get(
    '/api/admin/institutions',
    {
      config: { permission: 'instituciones.gestionar' },
      schema: {
        tags,
        summary: 'Instituciones, por razón social o RFC',
        querystring: institutionListQuerySchema,
        response: { 200: adminInstitutionListSchema },
      },
    },
    async (request) => {
      const { q, page } = request.query;
      const { items, total } = await listInstitutions(app.db, q, pageWindow(page));
      return { items, total, page, pages: pagesOf(total) };
    },
  );

  app.post(
    '/api/admin/institutions',
    {
      config: { permission: 'instituciones.gestionar' },
      schema: {
        tags,
        summary:
          'Crea una institución (datos fiscales con las reglas de la factura) e invita a su administrador',
        body: institutionCreateSchema,
        response: { 201: institutionViewSchema },
      },
    },
    async (request, reply) => {
      checkPostalCode(postalCodes, request.body.cp);
      const inviter = await staffInviter(request);
      const created = await app.db.transaction(async (tx) => {
        const institution = await createInstitution(tx, inviter.actor, request.body);
        if (request.body.adminEmail) {
          await createInvitation(
            tx,
            inviter,
            institution.id,
            {
              email: request.body.adminEmail,
              role: 'administrador',
              approvalLimit: null,
              orderLimit: null,
              monthlyLimit: null,
            },
            app.config.publicUrl,
          );
        }
        return institution;
      });
      reply.code(201);
      return created;
    },
  );

  app.get(
    '/api/admin/institutions/:id',
    {
      config: { permission: 'instituciones.gestionar' },
      schema: {
        tags,
        summary: 'La institución con sus miembros e invitaciones',
        params: institutionParamsSchema,
        response: { 200: adminInstitutionDetailSchema },
      },
    },
    async (request) => institutionDetail(app.db, request.params.id),
  );

  app.post(
    '/api/admin/institutions/:id/verify',
    {
      config: { permission: 'instituciones.gestionar' },
      schema: {
        tags,
        summary: 'Marca la institución como verificada (Constancia de Situación Fiscal revisada)',
        params: institutionParamsSchema,
        response: { 200: institutionViewSchema },
      },
    },
    async (request) => verifyInstitution(app.db, await staffActor(request), request.params.id),
  );

  app.put(
    '/api/admin/institutions/:id/terms',
    {
      config: { permission: 'credito.gestionar' },
      schema: {
        tags,
        summary: 'Condiciones: línea de crédito, orden de compra obligatoria, nombres de campos',
        params: institutionParamsSchema,
        body: institutionTermsSchema,
        response: { 200: institutionViewSchema },
      },
    },
    async (request) => setTerms(app.db, await staffActor(request), request.params.id, request.body),
  );

  app.post(
    '/api/admin/institutions/:id/invitations',
    {
      config: { permission: 'instituciones.gestionar' },
      schema: {
        tags,
        summary: 'Invita por correo a un miembro (normalmente el administrador)',
        params: institutionParamsSchema,
        body: invitationCreateSchema,
        response: { 201: messageSchema },
      },
    },
    async (request, reply) => {
      await institutionById(app.db, request.params.id);
      const inviter = await staffInviter(request);
      await app.db.transaction((tx) =>
        createInvitation(tx, inviter, request.params.id, request.body, app.config.publicUrl),
      );
      reply.code(201);
      return { message: `Invitación enviada a ${request.body.email}` };
    },
  );

  app.delete(
    '/api/admin/institutions/:id/invitations/:invitationId',
    {
      config: { permission: 'instituciones.gestionar' },
      schema: {
        tags,
        summary: 'Retira una invitación pendiente',
        params: invitationParamsSchema,
        response: { 200: messageSchema },
      },
    },
    async (request) => {
      await revokeInvitation(
        app.db,
        await staffActor(request),
        request.params.id,
        request.params.invitationId,
      );
      return { message: 'Invitación retirada' };
    },
  );
};

import { z } from 'zod';
import { addressSchema } from '../common.ts';
import { isoDay, page, pageInfoSchema } from './common.ts';
import { adminOrderSummarySchema, auditEntrySchema } from './orders.ts';

/** Invoices, customers, audit and delayed payments. Part of the back-office API contract (../admin.ts). */
export const adminInvoicesQuerySchema = z.object({
  status: z.enum(['', 'issued', 'cancelled', 'pending'], { error: 'Estado inválido' }).default(''),
  q: z.string().trim().max(100, 'La búsqueda es demasiado larga').optional(),
  page,
});
export type AdminInvoicesQuery = z.input<typeof adminInvoicesQuerySchema>;

export const INVOICE_STATUS_LABELS: Record<string, string> = {
  pending: 'Generándose',
  issued: 'Vigente',
  cancelled: 'Cancelada',
};

export const adminInvoiceRowSchema = z.object({
  id: z.number().int(),
  orderNumber: z.number().int(),
  status: z.string(),
  statusLabel: z.string(),
  uuid: z.string().nullable(),
  rfc: z.string(),
  nombreFiscal: z.string(),
  email: z.string(),
  totalCents: z.number().int(),
  test: z.boolean(),
  issuedAt: z.string().nullable(),
  cancelledAt: z.string().nullable(),
});
export type AdminInvoiceRow = z.infer<typeof adminInvoiceRowSchema>;
export const adminInvoiceListSchema = z.object({ items: z.array(adminInvoiceRowSchema), ...pageInfoSchema });

export const adminCustomersQuerySchema = z.object({
  q: z.string().trim().max(100, 'La búsqueda es demasiado larga').optional(),
  page,
});
export type AdminCustomersQuery = z.input<typeof adminCustomersQuerySchema>;

export const adminCustomerRowSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  role: z.enum(['customer', 'staff']),
  ordersCount: z.number().int(),
  createdAt: z.string(),
});
export type AdminCustomerRow = z.infer<typeof adminCustomerRowSchema>;
export const adminCustomerListSchema = z.object({
  items: z.array(adminCustomerRowSchema),
  ...pageInfoSchema,
});

/** PUT /api/admin/customers/:id/purchase-order */
export const customerPurchaseOrderSchema = z.object(
  { required: z.boolean({ error: 'Indique si la orden de compra es obligatoria' }) },
  { error: 'La solicitud debe ser un objeto JSON' },
);

export const customerIdParamsSchema = z.object({
  id: z.coerce
    .number({ error: 'Cliente no encontrado' })
    .int('Cliente no encontrado')
    .min(1, 'Cliente no encontrado')
    .max(2_147_483_647, 'Cliente no encontrado'),
});

export const adminCustomerDetailSchema = adminCustomerRowSchema.extend({
  address: addressSchema.nullable(),
  /** Every order of this buyer needs a purchase-order number (issue 20). */
  requiresPurchaseOrder: z.boolean(),
  totalSpentCents: z.number().int(),
  orders: z.array(adminOrderSummarySchema),
});
export type AdminCustomerDetail = z.infer<typeof adminCustomerDetailSchema>;

/** The log's filters (issue 36): who (part of the e-mail), what (an action), on what (type, id) and when (days in Mexico City). */
export const auditQuerySchema = z
  .object({
    entityType: z.string().max(40).optional(),
    entityId: z.string().max(80).optional(),
    actor: z.string().trim().max(120, 'Escriba como máximo 120 caracteres').optional(),
    action: z.string().max(60).optional(),
    from: isoDay('Fecha inicial inválida').optional(),
    to: isoDay('Fecha final inválida').optional(),
    page,
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, {
    message: 'La fecha inicial debe ser anterior a la final',
    path: ['to'],
  });
export type AuditQuery = z.input<typeof auditQuerySchema>;
export const auditListSchema = z.object({ items: z.array(auditEntrySchema), ...pageInfoSchema });

export const AUDIT_ACTION_LABELS: Record<string, string> = {
  'order.prepare': 'Pedido en preparación',
  'order.ship': 'Pedido enviado',
  'order.deliver': 'Pedido entregado',
  'order.shipment': 'Envío registrado',
  'order.shipment_delivered': 'Envío entregado',
  'order.pickup_ready': 'Listo para recoger en sucursal',
  'order.pickup_collected': 'Recogido en sucursal',
  'stock.receive': 'Mercancía recibida',
  'order.cancel': 'Pedido cancelado con reembolso',
  'refund.partial': 'Reembolso parcial',
  'refund.account': 'CLABE del reembolso registrada',
  'refund.payout': 'Reembolso pagado por Openpay a CLABE',
  'refund.transfer': 'Transferencia de reembolso registrada',
  'order.release': 'Pedido sin pagar liberado',
  'product.create': 'Producto creado',
  'product.update': 'Producto modificado',
  'product.activate': 'Producto activado',
  'product.deactivate': 'Producto desactivado',
  'product.image': 'Imagen cambiada',
  'product.datasheet': 'Ficha técnica cambiada',
  'product.hds': 'Hoja de datos de seguridad (HDS) cambiada',
  'product.hds_remove': 'Hoja de datos de seguridad (HDS) eliminada',
  'product.certificate': 'Certificado de análisis agregado',
  'product.certificate_remove': 'Certificado de análisis eliminado',
  'stock.adjust': 'Ajuste de existencia',
  'stock.reorder_point': 'Punto de reorden cambiado',
  'catalogue.import': 'Importación de catálogo',
  'synonym.create': 'Sinónimo de búsqueda agregado',
  'synonym.update': 'Sinónimo de búsqueda modificado',
  'synonym.delete': 'Sinónimo de búsqueda eliminado',
  'invoice.cancel': 'Factura cancelada',
  'staff.create': 'Cuenta de personal creada',
  'staff.promote': 'Cuenta promovida a personal',
  'staff.invite': 'Invitación al personal enviada',
  'staff.invitation_revoke': 'Invitación al personal retirada',
  'staff.join': 'Invitación al personal aceptada',
  'staff.role': 'Rol del personal cambiado',
  'staff.deactivate': 'Cuenta de personal desactivada',
  'staff.reactivate': 'Cuenta de personal reactivada',
  'staff.totp_enrol': 'Verificación en dos pasos activada',
  'staff.totp_reset': 'Verificación en dos pasos restablecida',
  'staff.second_factor': 'Ingreso confirmado con segundo factor',
  'quotation.revise': 'Cotización ajustada y reenviada',
  'quotation.extend': 'Vigencia de cotización extendida',
  'customer.purchase-order': 'Orden de compra obligatoria cambiada',
  'controlled.export': 'Exportación de ventas de productos controlados',
  'accounting.zip': 'Descarga de CFDI del periodo (ZIP)',
  'institution.create': 'Institución creada',
  'institution.verify': 'Institución verificada',
  'institution.terms': 'Condiciones de la institución cambiadas',
  'institution.settings': 'Reglas de compra de la institución cambiadas',
  'institution.invite': 'Invitación enviada',
  'institution.invitation_revoke': 'Invitación revocada',
  'institution.join': 'Invitación aceptada: nuevo miembro',
  'institution.member_update': 'Papel o límites de un miembro cambiados',
  'institution.member_remove': 'Miembro dado de baja',
  'institution.address_create': 'Dirección de la institución agregada',
  'institution.address_update': 'Dirección de la institución modificada',
  'institution.address_delete': 'Dirección de la institución eliminada',
};

/**
 * GET /api/admin/payments/delayed (issue 21): SPEI and store orders awaiting payment with their deadlines, and the
 * queue 'Pago recibido fuera de plazo' (paid after the order expired and its stock was released).
 */
const delayedRow = z.object({
  number: z.number().int(),
  date: z.string(),
  customerName: z.string(),
  email: z.string(),
  methodLabel: z.string(),
  totalCents: z.number().int(),
});
export const adminDelayedPaymentsSchema = z.object({
  awaiting: z.array(delayedRow.extend({ deadline: z.string() })),
  late: z.array(
    delayedRow.extend({
      latePaymentAt: z.string(),
      chargeId: z.string().nullable(),
      cancelledAt: z.string().nullable(),
    }),
  ),
});
export type AdminDelayedPayments = z.infer<typeof adminDelayedPaymentsSchema>;

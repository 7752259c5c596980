/**
 * The back office's roles and what each may do (issue 36, decision 064): one table, read by the server's single
 * check per route (`config.permission` of every /api/admin route, src/server/admin/guard.ts) and by the screens,
 * which hide what a role cannot do. The server is the authority; the screens only follow it.
 */
export const STAFF_ROLES = ['ventas', 'almacen', 'contabilidad', 'administrador'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

export const STAFF_ROLE_LABELS: Record<StaffRole, string> = {
  ventas: 'Ventas',
  almacen: 'Almacén',
  contabilidad: 'Contabilidad',
  administrador: 'Administrador',
};

const ALL: readonly StaffRole[] = STAFF_ROLES;

/**
 * Permission → the roles that hold it. A route names exactly one permission; an administrator holds every one.
 * Reading orders and the catalogue is everyone's (each role works on them); money going back to a buyer and tax
 * papers are contabilidad's; moving goods is almacén's; customers, prices to them and quotations are ventas'.
 */
export const STAFF_PERMISSIONS = {
  /** The dashboard (the admin's home). */
  'tablero.ver': ALL,
  /** Orders: the list, one order, its history. */
  'pedidos.ver': ALL,
  /** Orders: prepare, ship, deliver, pickups, shipments, release an unpaid hold. */
  'pedidos.surtir': ['almacen', 'administrador'],
  /** Money back: cancelling a paid order (it refunds), refunds, payouts, the buyer's CLABE, a return's refund. */
  'dinero.reembolsar': ['contabilidad', 'administrador'],
  /** Invoices, credit notes, the global, cancellations at the SAT, the accountant's downloads and reports. */
  'facturas.gestionar': ['contabilidad', 'administrador'],
  /** The catalogue read: products, their documents, the form's options (almacén counts stock on them). */
  'catalogo.ver': ALL,
  /** The catalogue: products, prices, documents, images, the import. */
  'catalogo.editar': ['ventas', 'administrador'],
  /** Stock: adjustments and movements, receipts of goods, reorder points, 'Por agotarse'. */
  'existencias.gestionar': ['almacen', 'administrador'],
  /** Customers, their purchase-order rule, quotations, contract prices, search synonyms and misses. */
  'clientes.gestionar': ['ventas', 'administrador'],
  /** Institutions: create, verify, invitations; their terms (credit line, purchase order) are credito.gestionar. */
  'instituciones.gestionar': ['ventas', 'administrador'],
  /** Credit lines and terms, payments received on account, statements, receivables and collections. */
  'credito.gestionar': ['contabilidad', 'administrador'],
  /** Returns: the list, authorize, refuse, receive, close (their refund is dinero.reembolsar). */
  'devoluciones.gestionar': ['almacen', 'ventas', 'administrador'],
  /** Controlled substances' sales log (precursors). */
  'controlados.ver': ['contabilidad', 'almacen', 'administrador'],
  /** Staff accounts: invite, change roles, deactivate; the audit log. */
  'personal.gestionar': ['administrador'],
} as const satisfies Record<string, readonly StaffRole[]>;

export type StaffPermission = keyof typeof STAFF_PERMISSIONS;

export const isStaffRole = (value: unknown): value is StaffRole =>
  typeof value === 'string' && (STAFF_ROLES as readonly string[]).includes(value);

/** Whether a role holds a permission (a missing or unknown role holds none). */
export function staffMay(role: StaffRole | null | undefined, permission: StaffPermission): boolean {
  return role != null && (STAFF_PERMISSIONS[permission] as readonly StaffRole[]).includes(role);
}

/** Every permission a role holds (sent to the screens with the session). */
export const permissionsOf = (role: StaffRole | null | undefined): StaffPermission[] =>
  (Object.keys(STAFF_PERMISSIONS) as StaffPermission[]).filter((p) => staffMay(role, p));

/** The 403 code of an admin request whose session has not passed the second factor yet (the screen asks for it). */
export const SECOND_FACTOR_REQUIRED = 'second_factor_required';
export const SECOND_FACTOR_MESSAGE =
  'Confirme su acceso con el código de su aplicación de autenticación para continuar';
/** The 403 code of a deactivated staff account. */
export const STAFF_DISABLED = 'staff_disabled';
export const STAFF_DISABLED_MESSAGE =
  'Su cuenta de personal está desactivada; pida a un administrador que la reactive';

/**
 * Institution accounts (issue 34, decision 057): a university, hospital, research centre or company that buys
 * through several people. One definition of the roles and of what each may do; the server checks every action
 * against `INSTITUTION_PERMISSIONS` (never the browser), the screens only hide what a role cannot do.
 */
export const INSTITUTION_ROLES = ['solicitante', 'aprobador', 'comprador', 'administrador'] as const;
export type InstitutionRole = (typeof INSTITUTION_ROLES)[number];

export const INSTITUTION_ROLE_LABELS: Record<InstitutionRole, string> = {
  solicitante: 'Solicitante',
  aprobador: 'Aprobador',
  comprador: 'Comprador',
  administrador: 'Administrador',
};

export const INSTITUTION_ROLE_HELP: Record<InstitutionRole, string> = {
  solicitante: 'Arma carritos y listas, y los envía a aprobación.',
  aprobador: 'Aprueba requisiciones hasta su límite.',
  comprador: 'Coloca pedidos a nombre de la institución.',
  administrador: 'Invita y da de baja miembros, fija límites y ve todo.',
};

/** Every action a member may take for an institution; the matrix tests walk this list. */
export const INSTITUTION_ACTIONS = [
  'requisition.create',
  'requisition.approve',
  'order.place',
  'order.place_on_credit',
  'members.manage',
  'settings.manage',
  'addresses.manage',
  'lists.use',
  'quotations.use',
  'orders.read_all',
  'statement.read',
  'audit.read',
] as const;
export type InstitutionAction = (typeof INSTITUTION_ACTIONS)[number];

const ALL: readonly InstitutionRole[] = INSTITUTION_ROLES;

/** action → the roles allowed it. The administrador may do everything. */
export const INSTITUTION_PERMISSIONS: Record<InstitutionAction, readonly InstitutionRole[]> = {
  'requisition.create': ALL,
  'requisition.approve': ['aprobador', 'administrador'],
  'order.place': ['comprador', 'administrador'],
  'order.place_on_credit': ['comprador', 'administrador'],
  'members.manage': ['administrador'],
  'settings.manage': ['administrador'],
  'addresses.manage': ['comprador', 'administrador'],
  'lists.use': ALL,
  'quotations.use': ALL,
  'orders.read_all': ['aprobador', 'comprador', 'administrador'],
  'statement.read': ['comprador', 'administrador'],
  'audit.read': ['administrador'],
};

export const canInstitution = (role: InstitutionRole, action: InstitutionAction): boolean =>
  INSTITUTION_PERMISSIONS[action].includes(role);

export const isInstitutionRole = (value: unknown): value is InstitutionRole =>
  typeof value === 'string' && (INSTITUTION_ROLES as readonly string[]).includes(value);

/** Credit terms staff may grant (días de crédito). */
export const CREDIT_TERMS_DAYS = [15, 30, 45, 60, 90] as const;

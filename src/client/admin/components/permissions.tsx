import { createContext, type ReactNode, useContext } from 'react';
import type { StaffPermission } from '@/shared/staff-roles.ts';

/**
 * What the signed-in staff member's role may do (from /api/staff/me): the screens hide what it cannot — sections,
 * buttons, panels. Only a courtesy: the server refuses every such request anyway (decision 064).
 */
const PermissionsContext = createContext<ReadonlySet<StaffPermission>>(new Set());

export function PermissionsProvider({
  permissions,
  children,
}: {
  permissions: readonly StaffPermission[];
  children: ReactNode;
}) {
  return <PermissionsContext.Provider value={new Set(permissions)}>{children}</PermissionsContext.Provider>;
}

/** Whether the role holds `permission`. */
export const useCan = () => {
  const set = useContext(PermissionsContext);
  return (permission: StaffPermission) => set.has(permission);
};

/** Renders its children only for a role that holds `permission`. */
export function Can({ permission, children }: { permission: StaffPermission; children: ReactNode }) {
  return useCan()(permission) ? children : null;
}

import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { useSessionUser } from '@/client/lib/auth/session.ts';
import { Alert } from '@/client/ui/alert.tsx';
import { useDocumentTitle } from '@/client/ui/page-heading.tsx';
import { Spinner } from '@/client/ui/spinner.tsx';
import type { StaffMember } from '@/shared/schemas/staff.ts';
import { STAFF_PERMISSIONS, STAFF_ROLE_LABELS, STAFF_ROLES, type StaffRole } from '@/shared/staff-roles.ts';
import {
  useChangeStaffRole,
  useInviteStaff,
  useResetSecondFactor,
  useRevokeStaffInvitation,
  useStaffActive,
  useStaffList,
} from '../api/staff.ts';
import {
  Badge,
  buttonClass,
  DataTable,
  FieldMessage,
  fieldClass,
  formatDateTime,
  Panel,
  ScreenTitle,
  serverFields,
  td,
  th,
} from '../components/admin-ui.tsx';

/** What each role may do, in words, from the permission table itself. */
const ROLE_SUMMARY: Record<StaffRole, string> = {
  ventas: 'Clientes, cotizaciones, precios por contrato, instituciones, catálogo y devoluciones.',
  almacen: 'Surtir y enviar pedidos, existencias, recepción de mercancía, devoluciones.',
  contabilidad: 'Facturas y notas de crédito, reembolsos, crédito y cobranza.',
  administrador: `Todo (${Object.keys(STAFF_PERMISSIONS).length} permisos), incluido el personal y la bitácora.`,
};

function InviteForm() {
  const invite = useInviteStaff();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<StaffRole>('ventas');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    invite.mutate(
      { email: email.trim(), role },
      {
        onSuccess: (data) => {
          toast.success(data.message);
          setEmail('');
        },
        onError: (error) => {
          setErrors(serverFields(error));
          toast.error(error.message);
        },
      },
    );
  };
  return (
    <Panel title="Invitar al personal">
      <form
        noValidate
        aria-label="Invitar al personal"
        className="grid gap-4 md:grid-cols-[1fr_14rem_auto]"
        onSubmit={submit}
      >
        <label className="block text-sm font-medium text-slate-700">
          Correo
          <input
            type="email"
            className={`${fieldClass} mt-1`}
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            aria-invalid={errors.email ? true : undefined}
          />
          <FieldMessage message={errors.email} />
        </label>
        <label className="block text-sm font-medium text-slate-700">
          Rol
          <select
            className={`${fieldClass} mt-1`}
            value={role}
            onChange={(e) => setRole(e.target.value as StaffRole)}
          >
            {STAFF_ROLES.map((r) => (
              <option key={r} value={r}>
                {STAFF_ROLE_LABELS[r]}
              </option>
            ))}
          </select>
        </label>
        <div className="flex items-end">
          <button type="submit" className={buttonClass.primary} disabled={invite.isPending}>
            Enviar invitación
          </button>
        </div>
      </form>
      <p className="mt-3 text-xs text-slate-500">
        {STAFF_ROLE_LABELS[role]}: {ROLE_SUMMARY[role]} El enlace sirve una vez y vence en 7 días; al entrar,
        la persona configura la verificación en dos pasos.
      </p>
    </Panel>
  );
}

function MemberRow({ member }: { member: StaffMember }) {
  const changeRole = useChangeStaffRole();
  const setActive = useStaffActive();
  const reset = useResetSecondFactor();
  // Nobody deactivates themself (the server refuses it with 409): the button is not offered on one's own row.
  const self = useSessionUser().user?.id === member.id;
  const done = {
    onSuccess: (d: { message: string }) => toast.success(d.message),
    onError: (e: Error) => toast.error(e.message),
  };
  return (
    <tr>
      <td className={td}>
        <span className="block font-medium text-slate-900">{member.name}</span>
        <span className="text-xs text-slate-500">{member.email}</span>
      </td>
      <td className={td}>
        <select
          aria-label={`Rol de ${member.email}`}
          className={`${fieldClass} min-w-36`}
          value={member.role ?? ''}
          disabled={changeRole.isPending}
          onChange={(e) => changeRole.mutate({ id: member.id, role: e.target.value as StaffRole }, done)}
        >
          {member.role === null ? <option value="">Sin rol</option> : null}
          {STAFF_ROLES.map((r) => (
            <option key={r} value={r}>
              {STAFF_ROLE_LABELS[r]}
            </option>
          ))}
        </select>
      </td>
      <td className={td}>
        <span className="flex flex-col items-start gap-1">
          <Badge tone={member.active ? 'active' : 'inactive'}>
            {member.active ? 'Activa' : 'Desactivada'}
          </Badge>
          <Badge tone={member.totpEnrolled ? 'active' : 'pending'}>
            {member.totpEnrolled ? 'Dos pasos: configurada' : 'Dos pasos: pendiente'}
          </Badge>
        </span>
      </td>
      <td className={`${td} whitespace-normal text-xs`}>{formatDateTime(member.lastSeenAt)}</td>
      <td className={`${td} text-right`}>
        <span className="inline-flex flex-col items-stretch gap-1.5">
          {member.totpEnrolled ? (
            <button
              type="button"
              className={`${buttonClass.secondary} px-3 py-1.5`}
              disabled={reset.isPending}
              onClick={() => {
                if (
                  window.confirm(
                    `¿Restablecer la verificación en dos pasos de ${member.email}? Se cerrarán sus sesiones.`,
                  )
                )
                  reset.mutate(member.id, done);
              }}
            >
              Restablecer 2 pasos
            </button>
          ) : null}
          {self ? null : (
            <button
              type="button"
              className={`${member.active ? buttonClass.danger : buttonClass.secondary} px-3 py-1.5`}
              disabled={setActive.isPending}
              onClick={() => setActive.mutate({ id: member.id, active: !member.active }, done)}
            >
              {member.active ? 'Desactivar' : 'Reactivar'}
            </button>
          )}
        </span>
      </td>
    </tr>
  );
}

/** /admin/personal: the staff, their roles and second factor; invitations; deactivation (administrador only). */
export function StaffScreen() {
  useDocumentTitle('Personal — Administración');
  const { data, isPending, error } = useStaffList();
  const revoke = useRevokeStaffInvitation();
  return (
    <>
      <ScreenTitle
        title="Personal"
        subtitle="Quién entra a la administración, con qué rol, y si configuró la verificación en dos pasos."
      />
      <div className="grid gap-5">
        <InviteForm />
        {error ? <Alert tone="danger">{error.message}</Alert> : null}
        {isPending ? <Spinner /> : null}
        {data ? (
          <>
            <DataTable
              head={
                <tr>
                  <th className={th}>Persona</th>
                  <th className={th}>Rol</th>
                  <th className={th}>Estado</th>
                  <th className={th}>Última actividad</th>
                  <th className={th}>
                    <span className="sr-only">Acciones</span>
                  </th>
                </tr>
              }
            >
              {data.members.map((m) => (
                <MemberRow key={m.id} member={m} />
              ))}
            </DataTable>
            {data.invitations.length > 0 ? (
              <Panel title="Invitaciones pendientes">
                <ul aria-label="Invitaciones pendientes" className="divide-y divide-slate-100 text-sm">
                  {data.invitations.map((i) => (
                    <li key={i.id} className="flex flex-wrap items-center justify-between gap-3 py-2">
                      <span>
                        <span className="font-medium text-slate-900">{i.email}</span>{' '}
                        <span className="text-slate-500">
                          · {STAFF_ROLE_LABELS[i.role]} · vence {formatDateTime(i.expiresAt)}
                        </span>
                      </span>
                      <button
                        type="button"
                        className={buttonClass.secondary}
                        disabled={revoke.isPending}
                        onClick={() =>
                          revoke.mutate(i.id, {
                            onSuccess: (d) => toast.success(d.message),
                            onError: (e) => toast.error(e.message),
                          })
                        }
                      >
                        Retirar
                      </button>
                    </li>
                  ))}
                </ul>
              </Panel>
            ) : null}
          </>
        ) : null}
      </div>
    </>
  );
}

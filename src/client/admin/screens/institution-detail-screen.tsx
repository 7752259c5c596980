import { type FormEvent, useState } from 'react';
import { Link, useParams } from 'react-router';
import { toast } from 'sonner';
import { Alert } from '@/client/ui/alert.tsx';
import { useDocumentTitle } from '@/client/ui/page-heading.tsx';
import { Spinner } from '@/client/ui/spinner.tsx';
import { CREDIT_TERMS_DAYS, INSTITUTION_ROLE_LABELS, INSTITUTION_ROLES } from '@/shared/institutions.ts';
import { formatMoney } from '@/shared/money.ts';
import type { InstitutionView, InvitationCreateInput } from '@/shared/schemas/institutions.ts';
import {
  useAdminInstitution,
  useSetTerms,
  useStaffInvite,
  useVerifyInstitution,
} from '../api/institutions.ts';
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

const pesos = (cents: number | null) => (cents === null ? '' : (cents / 100).toFixed(2));
const label = 'block text-sm font-medium text-slate-700';

/** Staff's terms: the credit line (limit and days, both or neither), the purchase-order rule, the field names. */
function TermsForm({ institution }: { institution: InstitutionView }) {
  const save = useSetTerms(institution.id);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [form, setForm] = useState({
    creditLimit: pesos(institution.creditLimitCents),
    creditDays: institution.creditDays === null ? '' : String(institution.creditDays),
    requiresPurchaseOrder: institution.requiresPurchaseOrder,
    costCentreLabel: institution.costCentreLabel,
    projectLabel: institution.projectLabel,
    billingEmail: institution.billingEmail,
  });
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [key]: e.target.value }));
  return (
    <form
      noValidate
      aria-label="Condiciones"
      className="grid gap-4 md:grid-cols-2"
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        setErrors({});
        save.mutate(
          { ...form, creditDays: form.creditDays === '' ? null : Number(form.creditDays) },
          {
            onSuccess: () => toast.success('Condiciones guardadas'),
            onError: (error) => {
              setErrors(serverFields(error));
              toast.error(error.message);
            },
          },
        );
      }}
    >
      <label className={label}>
        Límite de crédito (pesos)
        <input
          className={`${fieldClass} mt-1`}
          inputMode="decimal"
          placeholder="Sin crédito"
          value={form.creditLimit}
          onChange={set('creditLimit')}
        />
        <FieldMessage message={errors.creditLimit} />
      </label>
      <label className={label}>
        Días de crédito
        <select className={`${fieldClass} mt-1`} value={form.creditDays} onChange={set('creditDays')}>
          <option value="">Sin crédito</option>
          {CREDIT_TERMS_DAYS.map((d) => (
            <option key={d} value={String(d)}>
              {d} días
            </option>
          ))}
        </select>
        <FieldMessage message={errors.creditDays} />
      </label>
      <label className={label}>
        Nombre del campo «centro de costos»
        <input
          className={`${fieldClass} mt-1`}
          value={form.costCentreLabel}
          onChange={set('costCentreLabel')}
        />
        <FieldMessage message={errors.costCentreLabel} />
      </label>
      <label className={label}>
        Nombre del campo «proyecto»
        <input className={`${fieldClass} mt-1`} value={form.projectLabel} onChange={set('projectLabel')} />
        <FieldMessage message={errors.projectLabel} />
      </label>
      <label className={label}>
        Correo de cuentas por pagar
        <input
          className={`${fieldClass} mt-1`}
          type="email"
          value={form.billingEmail}
          onChange={set('billingEmail')}
        />
        <FieldMessage message={errors.billingEmail} />
      </label>
      <label className="flex items-center gap-2 self-end text-sm font-medium text-slate-700">
        <input
          type="checkbox"
          className="size-4"
          checked={form.requiresPurchaseOrder}
          onChange={(e) => setForm((f) => ({ ...f, requiresPurchaseOrder: e.target.checked }))}
        />
        Orden de compra obligatoria en cada pedido
      </label>
      <div>
        <button type="submit" className={buttonClass.primary} disabled={save.isPending}>
          Guardar condiciones
        </button>
      </div>
    </form>
  );
}

function InviteMember({ id }: { id: number }) {
  const invite = useStaffInvite(id);
  const [form, setForm] = useState<InvitationCreateInput>({ email: '', role: 'administrador' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  return (
    <form
      noValidate
      aria-label="Invitar"
      className="flex flex-wrap items-end gap-3"
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        setErrors({});
        invite.mutate(form, {
          onSuccess: (a) => {
            toast.success(a.message);
            setForm({ email: '', role: 'administrador' });
          },
          onError: (error) => {
            setErrors(serverFields(error));
            toast.error(error.message);
          },
        });
      }}
    >
      <label className={`${label} min-w-0 flex-1 basis-60`}>
        Correo
        <input
          className={`${fieldClass} mt-1`}
          type="email"
          value={form.email}
          onChange={(e) => setForm((f) => ({ ...f, email: e.target.value }))}
        />
        <FieldMessage message={errors.email} />
      </label>
      <label className={label}>
        Papel
        <select
          className={`${fieldClass} mt-1`}
          value={form.role}
          onChange={(e) => setForm((f) => ({ ...f, role: e.target.value as InvitationCreateInput['role'] }))}
        >
          {INSTITUTION_ROLES.map((r) => (
            <option key={r} value={r}>
              {INSTITUTION_ROLE_LABELS[r]}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className={buttonClass.primary} disabled={invite.isPending}>
        Enviar invitación
      </button>
    </form>
  );
}

export function InstitutionDetailScreen() {
  const id = Number(useParams().id);
  const { data, isPending, error } = useAdminInstitution(id);
  const verify = useVerifyInstitution(id);
  useDocumentTitle(`${data?.institution.razonSocial ?? 'Institución'} — Administración`);
  if (isPending) return <Spinner />;
  if (error) return <Alert tone="danger">{error.message}</Alert>;
  const { institution, members, invitations } = data;
  return (
    <>
      <Link to="/admin/instituciones" className="text-sm font-medium text-brand-700 hover:underline">
        ← Instituciones
      </Link>
      <ScreenTitle
        title={institution.razonSocial}
        subtitle={`RFC ${institution.rfc} · régimen ${institution.regimenFiscal} · C.P. ${institution.cp} · uso ${institution.usoCfdi}`}
        actions={
          institution.verified ? (
            <Badge tone="active">Verificada {formatDateTime(institution.verifiedAt)}</Badge>
          ) : (
            <button
              type="button"
              className={buttonClass.primary}
              disabled={verify.isPending}
              onClick={() =>
                verify.mutate(undefined, {
                  onSuccess: () => toast.success('Institución verificada'),
                  onError: (e) => toast.error(e.message),
                })
              }
            >
              Marcar como verificada (CSF revisada)
            </button>
          )
        }
      />
      <div className="grid gap-5">
        <Panel
          title="Condiciones"
          actions={
            <span className="text-sm text-slate-500">
              {institution.creditLimitCents !== null
                ? `Crédito ${formatMoney(institution.creditLimitCents)} a ${institution.creditDays} días`
                : 'Sin línea de crédito'}
            </span>
          }
        >
          <TermsForm institution={institution} />
        </Panel>
        <Panel title="Invitar a un miembro">
          <InviteMember id={id} />
          {invitations.length > 0 ? (
            <ul className="mt-4 divide-y divide-slate-100 text-sm">
              {invitations.map((i) => (
                <li key={i.id} className="flex flex-wrap justify-between gap-2 py-2">
                  <span className="break-all">
                    {i.email} · {INSTITUTION_ROLE_LABELS[i.role]}
                  </span>
                  <Badge tone={i.status === 'pending' ? 'pending' : 'inactive'}>
                    {
                      { pending: 'Pendiente', accepted: 'Aceptada', expired: 'Vencida', revoked: 'Retirada' }[
                        i.status
                      ]
                    }
                  </Badge>
                </li>
              ))}
            </ul>
          ) : null}
        </Panel>
        <DataTable
          empty={members.length === 0 ? 'Aún no hay miembros: invite al administrador.' : null}
          head={
            <tr>
              <th className={th}>Miembro</th>
              <th className={th}>Papel</th>
              <th className={`${th} text-right`}>Por pedido</th>
              <th className={`${th} text-right`}>Mensual</th>
              <th className={`${th} text-right`}>Gastado este mes</th>
            </tr>
          }
        >
          {members.map((m) => (
            <tr key={m.userId}>
              <td className={td}>
                {m.name} <span className="text-slate-500">{m.email}</span>
              </td>
              <td className={td}>{INSTITUTION_ROLE_LABELS[m.role]}</td>
              <td className={`${td} text-right`}>
                {m.orderLimitCents === null ? '—' : formatMoney(m.orderLimitCents)}
              </td>
              <td className={`${td} text-right`}>
                {m.monthlyLimitCents === null ? '—' : formatMoney(m.monthlyLimitCents)}
              </td>
              <td className={`${td} text-right`}>{formatMoney(m.spentThisMonthCents)}</td>
            </tr>
          ))}
        </DataTable>
      </div>
    </>
  );
}

import { useState } from 'react';
import { toast } from 'sonner';
import { showServerError } from '@/client/ui/server-errors.ts';
import { INSTITUTION_ROLE_LABELS, INSTITUTION_ROLES, type InstitutionRole } from '@/shared/institutions.ts';
import { formatMoney } from '@/shared/money.ts';
import type { MemberView } from '@/shared/schemas/institutions.ts';
import { useRemoveMember, useUpdateMember } from '../api/institutions.ts';
import { pesosText } from './institution-limits.ts';

const input =
  'w-full rounded-md border border-slate-300 px-2.5 py-1.5 text-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-100';

/** One member for the administrador: role and limits editable in place, «Dar de baja». */
export function MemberRow({
  institutionId,
  member,
  self,
}: {
  institutionId: number;
  member: MemberView;
  self: boolean;
}) {
  const update = useUpdateMember(institutionId);
  const remove = useRemoveMember(institutionId);
  const [role, setRole] = useState<InstitutionRole>(member.role);
  const [orderLimit, setOrderLimit] = useState(pesosText(member.orderLimitCents));
  const [monthlyLimit, setMonthlyLimit] = useState(pesosText(member.monthlyLimitCents));
  const [approvalLimit, setApprovalLimit] = useState(pesosText(member.approvalLimitCents));
  const changed =
    role !== member.role ||
    orderLimit !== pesosText(member.orderLimitCents) ||
    monthlyLimit !== pesosText(member.monthlyLimitCents) ||
    approvalLimit !== pesosText(member.approvalLimitCents);
  const id = `miembro-${member.userId}`;
  return (
    <li className="py-4">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-0.5">
        <p className="min-w-0">
          <span className="font-medium text-slate-900">{member.name}</span>
          {self ? <span className="ml-1.5 text-xs text-slate-500">(usted)</span> : null}
          <span className="block text-sm text-slate-600 [overflow-wrap:anywhere]">{member.email}</span>
        </p>
        <p className="text-xs text-slate-500">
          Este mes: {formatMoney(member.spentThisMonthCents)}
          {member.monthlyLimitCents !== null ? ` de ${formatMoney(member.monthlyLimitCents)}` : ''}
        </p>
      </div>
      <div className="mt-3 grid items-end gap-3 sm:grid-cols-2 xl:grid-cols-[minmax(0,1.3fr)_repeat(3,minmax(0,1fr))_auto]">
        <label className="text-xs font-medium text-slate-600" htmlFor={`${id}-papel`}>
          Papel
          <select
            id={`${id}-papel`}
            className={`${input} mt-1 bg-white`}
            value={role}
            onChange={(e) => setRole(e.target.value as InstitutionRole)}
          >
            {INSTITUTION_ROLES.map((r) => (
              <option key={r} value={r}>
                {INSTITUTION_ROLE_LABELS[r]}
              </option>
            ))}
          </select>
        </label>
        {(
          [
            ['Por pedido', orderLimit, setOrderLimit, 'pedido'],
            ['Mensual', monthlyLimit, setMonthlyLimit, 'mensual'],
            ['Aprueba hasta', approvalLimit, setApprovalLimit, 'aprueba'],
          ] as const
        ).map(([label, value, setValue, key]) => (
          <label key={key} className="text-xs font-medium text-slate-600" htmlFor={`${id}-${key}`}>
            {label}
            <input
              id={`${id}-${key}`}
              className={`${input} mt-1`}
              inputMode="decimal"
              placeholder="Sin límite"
              value={value}
              onChange={(e) => setValue(e.target.value)}
            />
          </label>
        ))}
        <div className="flex gap-2">
          <button
            type="button"
            disabled={!changed || update.isPending}
            onClick={() =>
              update.mutate(
                { userId: member.userId, body: { role, orderLimit, monthlyLimit, approvalLimit } },
                {
                  onSuccess: (a) => toast.success(a.message),
                  onError: (error) => showServerError(error, 'No se pudo guardar el cambio'),
                },
              )
            }
            className="rounded-md bg-brand-700 px-3 py-1.5 text-sm font-semibold text-white hover:bg-brand-800 disabled:cursor-not-allowed disabled:bg-slate-300"
          >
            Guardar
          </button>
          <button
            type="button"
            disabled={remove.isPending}
            onClick={() => {
              if (
                !window.confirm(`¿Dar de baja a ${member.name}? Dejará de poder comprar para la institución.`)
              )
                return;
              remove.mutate(member.userId, {
                onSuccess: (a) => toast.success(a.message),
                onError: (error) => showServerError(error, 'No se pudo dar de baja'),
              });
            }}
            className="rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-700 hover:border-red-400 hover:text-red-700"
          >
            Dar de baja
          </button>
        </div>
      </div>
    </li>
  );
}

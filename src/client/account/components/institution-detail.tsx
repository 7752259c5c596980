import { type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { Alert } from '@/client/ui/alert.tsx';
import { showServerError } from '@/client/ui/server-errors.ts';
import { Spinner } from '@/client/ui/spinner.tsx';
import { INSTITUTION_ROLE_HELP, INSTITUTION_ROLE_LABELS } from '@/shared/institutions.ts';
import { formatMoney } from '@/shared/money.ts';
import type { MembershipView } from '@/shared/schemas/institutions.ts';
import {
  useChooseInstitution,
  useDeleteInstitutionAddress,
  useInstitutionAddresses,
  useMembers,
  useRevokeInvitation,
  useSaveInstitutionAddress,
} from '../api/institutions.ts';
import { AddressForm } from './address-form.tsx';
import { AuditPanel } from './institution-audit-panel.tsx';
import { InviteForm } from './institution-invite-form.tsx';
import { limitLabel } from './institution-limits.ts';
import { MemberRow } from './institution-member-row.tsx';
import { InstitutionOrders } from './institution-orders.tsx';

function Panel({
  title,
  description,
  children,
}: {
  title: string;
  description?: string;
  children: ReactNode;
}) {
  return (
    <section className="rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-7">
      <h3 className="text-lg font-semibold text-slate-900">{title}</h3>
      {description ? <p className="mt-1 text-sm text-slate-600">{description}</p> : null}
      <div className="mt-5">{children}</div>
    </section>
  );
}

function Facts({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2 lg:grid-cols-3">
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt className="text-slate-500">{label}</dt>
          <dd className="font-medium text-slate-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Members({ membership, userId }: { membership: MembershipView; userId: number }) {
  const id = membership.institution.id;
  const members = useMembers(id, true);
  const revoke = useRevokeInvitation(id);
  if (members.isPending) return <Spinner />;
  if (members.error) return <Alert tone="danger">{members.error.message}</Alert>;
  const pending = members.data.invitations.filter((i) => i.status === 'pending');
  return (
    <div className="grid gap-6">
      <Panel
        title="Miembros"
        description="Papel y límites de cada persona. Los límites se escriben en pesos; vacío: sin límite. El mes se cuenta en hora de la Ciudad de México."
      >
        <ul className="divide-y divide-slate-100" aria-label="Miembros">
          {members.data.members.map((m) => (
            <MemberRow key={m.userId} institutionId={id} member={m} self={m.userId === userId} />
          ))}
        </ul>
        {pending.length > 0 ? (
          <div className="mt-6">
            <h4 className="text-sm font-semibold text-slate-900">Invitaciones pendientes</h4>
            <ul className="mt-2 divide-y divide-slate-100 text-sm">
              {pending.map((i) => (
                <li key={i.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                  <span className="min-w-0 break-all">
                    {i.email} · {INSTITUTION_ROLE_LABELS[i.role]}
                    <span className="text-slate-500">
                      {' '}
                      · vence el{' '}
                      {new Date(i.expiresAt).toLocaleDateString('es-MX', {
                        dateStyle: 'long',
                        timeZone: 'America/Mexico_City',
                      })}
                    </span>
                  </span>
                  <button
                    type="button"
                    onClick={() =>
                      revoke.mutate(i.id, {
                        onSuccess: (a) => toast.success(a.message),
                        onError: (error) => showServerError(error, 'No se pudo retirar la invitación'),
                      })
                    }
                    className="text-sm font-medium text-red-700 hover:underline"
                  >
                    Retirar
                  </button>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </Panel>
      <Panel title="Invitar a un miembro">
        <InviteForm institutionId={id} />
      </Panel>
    </div>
  );
}

function Addresses({ institutionId, manage }: { institutionId: number; manage: boolean }) {
  const addresses = useInstitutionAddresses(institutionId);
  const save = useSaveInstitutionAddress(institutionId);
  const remove = useDeleteInstitutionAddress(institutionId);
  const [adding, setAdding] = useState(false);
  if (addresses.isPending) return <Spinner />;
  if (addresses.error) return <Alert tone="danger">{addresses.error.message}</Alert>;
  return (
    <div className="grid gap-4">
      {addresses.data.length === 0 ? (
        <p className="text-sm text-slate-600">La institución aún no tiene direcciones de envío guardadas.</p>
      ) : (
        <ul className="grid gap-3 sm:grid-cols-2">
          {addresses.data.map((a) => (
            <li key={a.id} className="rounded-lg border border-slate-200 p-3 text-sm">
              <p className="font-semibold text-slate-900">{a.alias}</p>
              <p className="text-slate-600">
                {a.calleEnvio} {a.numExtEnvio}
                {a.numIntEnvio ? ` int. ${a.numIntEnvio}` : ''}, {a.coloniaEnvio}, {a.municipioEnvio},{' '}
                {a.estadoEnvio}, C.P. {a.cpEnvio}
              </p>
              {manage ? (
                <button
                  type="button"
                  className="mt-2 text-sm font-medium text-red-700 hover:underline"
                  onClick={() =>
                    remove.mutate(a.id, {
                      onSuccess: (answer) => toast.success(answer.message),
                      onError: (error) => showServerError(error, 'No se pudo eliminar la dirección'),
                    })
                  }
                >
                  Eliminar
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {manage && !adding ? (
        <div>
          <button
            type="button"
            onClick={() => setAdding(true)}
            className="rounded-lg border border-slate-300 px-4 py-2 text-sm font-semibold text-slate-700 hover:border-brand-500 hover:text-brand-700"
          >
            Agregar dirección
          </button>
        </div>
      ) : null}
      {manage && adding ? (
        <AddressForm
          address={null}
          submitLabel="Guardar dirección"
          saveTo={save}
          onSaved={() => setAdding(false)}
          onCancel={() => setAdding(false)}
        />
      ) : null}
    </div>
  );
}

/** One institution as its member sees it: fiscal data, rules, their role; members and trail for the administrador. */
export function InstitutionDetail({
  membership,
  activeId,
  userId,
}: {
  membership: MembershipView;
  activeId: number | null;
  userId: number;
}) {
  const { institution, role, actions } = membership;
  const choose = useChooseInstitution();
  const active = activeId === institution.id;
  return (
    <div className="grid gap-6">
      <div>
        <Link to="/cuenta/instituciones" className="text-sm font-medium text-brand-700 hover:underline">
          ← Mis instituciones
        </Link>
        <h2 className="mt-2 text-2xl font-semibold text-slate-900">{institution.razonSocial}</h2>
        <p className="mt-1 text-sm text-slate-600">
          Su papel: <strong>{INSTITUTION_ROLE_LABELS[role]}</strong> — {INSTITUTION_ROLE_HELP[role]}
        </p>
        <div className="mt-3">
          {active ? (
            <span className="inline-flex rounded-full bg-amber-100 px-3 py-1 text-sm font-medium text-amber-900">
              Esta sesión compra para esta institución
            </span>
          ) : (
            <button
              type="button"
              disabled={choose.isPending}
              onClick={() =>
                choose.mutate(institution.id, {
                  onSuccess: () => toast.success(`Ahora compra para ${institution.razonSocial}`),
                  onError: (error) => showServerError(error, 'No se pudo cambiar para quién compra'),
                })
              }
              className="rounded-lg bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800"
            >
              Comprar para esta institución
            </button>
          )}
        </div>
      </div>
      <Panel title="Datos de la institución">
        <Facts
          rows={[
            ['RFC', institution.rfc],
            ['Régimen fiscal', institution.regimenFiscal],
            ['Código postal fiscal', institution.cp],
            ['Uso de CFDI', institution.usoCfdi],
            [
              'Orden de compra',
              institution.requiresPurchaseOrder ? 'Obligatoria en cada pedido' : 'Opcional',
            ],
            [
              'Crédito',
              institution.creditLimitCents !== null
                ? `${formatMoney(institution.creditLimitCents)} a ${institution.creditDays} días`
                : 'Sin línea de crédito',
            ],
            ['Su límite por pedido', limitLabel(membership.orderLimitCents)],
            ['Su límite mensual', limitLabel(membership.monthlyLimitCents)],
            ['Verificada', institution.verified ? 'Sí' : 'En revisión por la tienda'],
          ]}
        />
      </Panel>
      <Panel title="Direcciones de envío" description="Campus, laboratorios y almacenes de la institución.">
        <Addresses institutionId={institution.id} manage={actions.includes('addresses.manage')} />
      </Panel>
      {actions.includes('orders.read_all') ? (
        <Panel
          title="Pedidos de la institución"
          description="Los pedidos de todos los miembros a nombre de la institución."
        >
          <InstitutionOrders institutionId={institution.id} />
        </Panel>
      ) : null}
      {actions.includes('members.manage') ? <Members membership={membership} userId={userId} /> : null}
      {actions.includes('audit.read') ? (
        <Panel title="Bitácora" description="Quién cambió qué: miembros, invitaciones, reglas y direcciones.">
          <AuditPanel institutionId={institution.id} />
        </Panel>
      ) : null}
    </div>
  );
}

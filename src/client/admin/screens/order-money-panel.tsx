import { useState } from 'react';
import { formatMoney } from '@/shared/money.ts';
import { REFUND_ROUTE_LABELS, REFUND_STATE_LABELS } from '@/shared/refund-routes.ts';
import type { AdminOrderDetail } from '@/shared/schemas/admin.ts';
import type { RefundView } from '@/shared/schemas/refunds.ts';
import { buttonClass, formatAgeHours, formatDateTime, hoursSince, Panel } from '../components/admin-ui.tsx';
import { useCan } from '../components/permissions.tsx';
import { AccountForm, PartialRefundForm, PayoutConfirm, TransferForm } from './order-refund-forms.tsx';

/**
 * 'Dinero del pedido' (decision 045): the ledger's balances, every refund with its route and state, and what staff
 * do about them — a partial refund, the customer's CLABE, paying what is owed by an Openpay payout or recording a
 * transfer made from the bank. Every figure is the server's; each action answers the order as it now stands.
 */

const STATE_TONES: Record<RefundView['state'], string> = {
  owed: 'bg-amber-50 text-amber-800 ring-amber-300',
  in_progress: 'bg-sky-50 text-sky-800 ring-sky-300',
  done: 'bg-green-50 text-green-800 ring-green-300',
  failed: 'bg-red-50 text-red-700 ring-red-200',
};

export function RefundStateBadge({ state }: { state: RefundView['state'] }) {
  return (
    <span
      className={`inline-flex items-center whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${STATE_TONES[state]}`}
      data-testid="refund-state"
    >
      {REFUND_STATE_LABELS[state]}
    </span>
  );
}

/** A refund still owed is not tied to a way of paying it yet: it goes to a CLABE, by payout or by transfer. */
export const refundRouteLabel = (r: Pick<RefundView, 'route' | 'state'>) =>
  r.route !== 'card' && r.state !== 'done' ? 'Transferencia a CLABE' : REFUND_ROUTE_LABELS[r.route];

function Balances({ balances }: { balances: AdminOrderDetail['balances'] }) {
  const tiles: { key: string; label: string; cents: number; tone?: string }[] = [
    { key: 'paid', label: 'Pagado', cents: balances.paidCents },
    { key: 'refunded', label: 'Reembolsado', cents: balances.refundedCents },
    {
      key: 'due',
      label: 'Por reembolsar',
      cents: balances.refundDueCents,
      tone: balances.refundDueCents > 0 ? 'text-amber-800' : undefined,
    },
    { key: 'kept', label: 'Queda', cents: balances.keptCents },
    { key: 'invoiced', label: 'Facturado', cents: balances.invoicedCents },
    { key: 'credited', label: 'Notas de crédito', cents: balances.creditedCents },
  ];
  return (
    <dl className="grid grid-cols-2 gap-2 sm:grid-cols-3">
      {tiles.map((t) => (
        <div key={t.key} className="rounded-lg border border-slate-100 bg-slate-50 px-3 py-2">
          <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{t.label}</dt>
          <dd
            className={`mt-0.5 font-semibold tabular-nums ${t.tone ?? 'text-slate-900'}`}
            data-testid={`balance-${t.key}`}
          >
            {formatMoney(t.cents)}
          </dd>
        </div>
      ))}
    </dl>
  );
}

type Opened = 'account' | 'payout' | 'transfer' | null;

function RefundItem({ order, refund }: { order: AdminOrderDetail; refund: RefundView }) {
  const [opened, setOpened] = useState<Opened>(null);
  const owedToClabe = refund.route !== 'card' && refund.state === 'owed';
  const toggle = (what: Exclude<Opened, null>) => setOpened((now) => (now === what ? null : what));
  return (
    <li className="py-3" data-testid="admin-refund">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="flex flex-wrap items-center gap-2">
          <strong className="tabular-nums text-slate-900">{formatMoney(refund.amountCents)}</strong>
          <RefundStateBadge state={refund.state} />
          <span className="text-sm text-slate-600">{refundRouteLabel(refund)}</span>
        </span>
        <span className="text-xs text-slate-500">
          {refund.doneAt
            ? `Pagado el ${formatDateTime(refund.doneAt)}`
            : `Abierto hace ${formatAgeHours(hoursSince(refund.createdAt))}`}
        </span>
      </div>
      <dl className="mt-1.5 grid gap-x-4 gap-y-0.5 text-sm sm:grid-cols-[auto_minmax(0,1fr)]">
        <dt className="text-slate-500">Motivo</dt>
        <dd className="text-slate-800">{refund.reason}</dd>
        {refund.route !== 'card' ? (
          <>
            <dt className="text-slate-500">Cuenta</dt>
            <dd className="text-slate-800" data-testid="refund-account">
              {refund.clabeLast4 ? (
                `CLABE terminada en ${refund.clabeLast4}${refund.holderName ? ` · ${refund.holderName}` : ''}`
              ) : (
                <span className="font-medium text-amber-800">Sin CLABE</span>
              )}
            </dd>
          </>
        ) : null}
        {refund.reference ? (
          <>
            <dt className="text-slate-500">Referencia</dt>
            <dd className="break-all font-mono text-xs text-slate-800 sm:leading-5">{refund.reference}</dd>
          </>
        ) : null}
      </dl>
      {refund.errorMessage ? (
        <p className="mt-2 text-sm text-red-700">Último intento rechazado: {refund.errorMessage}</p>
      ) : null}
      {owedToClabe ? (
        <div className="mt-3 flex flex-wrap gap-2">
          <button type="button" className={buttonClass.secondary} onClick={() => toggle('account')}>
            {refund.clabeLast4 ? 'Cambiar CLABE' : 'Registrar CLABE'}
          </button>
          {refund.clabeLast4 ? (
            <button type="button" className={buttonClass.primary} onClick={() => toggle('payout')}>
              Pagar por Openpay
            </button>
          ) : null}
          <button type="button" className={buttonClass.secondary} onClick={() => toggle('transfer')}>
            Registrar transferencia
          </button>
        </div>
      ) : null}
      {owedToClabe && opened === 'account' ? (
        <AccountForm order={order} onDone={() => setOpened(null)} />
      ) : null}
      {owedToClabe && opened === 'payout' ? (
        <PayoutConfirm refund={refund} onDone={() => setOpened(null)} />
      ) : null}
      {owedToClabe && opened === 'transfer' ? (
        <TransferForm refund={refund} onDone={() => setOpened(null)} />
      ) : null}
    </li>
  );
}

export function OrderMoneyPanel({ order }: { order: AdminOrderDetail }) {
  const [partial, setPartial] = useState(false);
  // What is left to give back is the server's figure; the server refuses more anyway.
  // Money back is contabilidad's (and the administrador's): hidden from other roles, refused by the server anyway.
  const mayRefund = useCan()('dinero.reembolsar');
  const canRefund = mayRefund && order.balances.keptCents > 0 && order.paidAt !== null;
  return (
    <div data-testid="order-money">
      <Panel
        title="Dinero del pedido"
        actions={
          canRefund && !partial ? (
            <button type="button" className={buttonClass.secondary} onClick={() => setPartial(true)}>
              Reembolso parcial
            </button>
          ) : null
        }
      >
        <Balances balances={order.balances} />
        {partial ? <PartialRefundForm order={order} onDone={() => setPartial(false)} /> : null}
        <h3 className="mt-5 text-sm font-semibold text-slate-900">Reembolsos</h3>
        {order.refunds.length === 0 ? (
          <p className="mt-1 text-sm text-slate-500">Sin reembolsos.</p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {order.refunds.map((r) => (
              <RefundItem key={r.id} order={order} refund={r} />
            ))}
          </ul>
        )}
      </Panel>
    </div>
  );
}

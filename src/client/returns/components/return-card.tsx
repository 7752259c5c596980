import { formatMoney } from '@/shared/money.ts';
import { RESTOCK_LABELS, type ReturnState } from '@/shared/returns.ts';
import type { ReturnView } from '@/shared/schemas/returns.ts';

export const RETURN_BADGES: Record<ReturnState, string> = {
  requested: 'bg-amber-100 text-amber-900',
  authorized: 'bg-sky-100 text-sky-900',
  refused: 'bg-red-100 text-red-800',
  received: 'bg-brand-100 text-brand-800',
  refunded: 'bg-green-100 text-green-800',
  closed: 'bg-slate-200 text-slate-700',
};

const NEXT: Partial<Record<ReturnState, string>> = {
  requested:
    'Revisaremos su solicitud y le responderemos en un máximo de dos días hábiles. No envíe nada todavía.',
  received: 'Recibimos la mercancía; la estamos revisando.',
};

/** One return as its buyer reads it: state, what and why, what to do next, where the money goes. */
export function ReturnCard({ item, showStaffLines = false }: { item: ReturnView; showStaffLines?: boolean }) {
  return (
    <li
      className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5"
      data-testid="return-card"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <p className="font-semibold text-slate-900">Devolución #{item.id}</p>
          <p className="text-sm text-slate-600">
            {item.reasonLabel} · {formatMoney(item.valueCents)}
          </p>
        </div>
        <span
          className={`rounded-full px-2.5 py-1 text-xs font-semibold ${RETURN_BADGES[item.state]}`}
          data-testid="return-state"
        >
          {item.stateLabel}
        </span>
      </div>
      <ul className="mt-3 space-y-1 text-sm text-slate-700">
        {item.lines.map((l) => (
          <li key={l.lineNo}>
            {l.quantity} × {l.description}
            {showStaffLines && l.disposition ? (
              <span className="text-slate-500"> — {RESTOCK_LABELS[l.disposition]}</span>
            ) : null}
          </li>
        ))}
      </ul>
      {NEXT[item.state] && <p className="mt-3 text-sm text-slate-600">{NEXT[item.state]}</p>}
      {item.state === 'authorized' && item.instructions && (
        <div className="mt-3 rounded-lg border border-sky-200 bg-sky-50 px-3 py-2 text-sm text-sky-900">
          <p className="font-medium">Cómo enviarla</p>
          <p className="mt-1 whitespace-pre-line">{item.instructions}</p>
          {item.labelUrl && (
            <a
              href={item.labelUrl}
              target="_blank"
              rel="noopener noreferrer"
              className="mt-2 inline-block font-medium text-brand-700 underline"
            >
              Descargar la guía de envío
            </a>
          )}
        </div>
      )}
      {(item.state === 'refused' || item.state === 'closed') && item.staffNote && (
        <p className="mt-3 text-sm text-red-800">Motivo: {item.staffNote}</p>
      )}
      {item.refund && (
        <p className="mt-3 text-sm font-medium text-green-800" data-testid="return-refund">
          {item.refund.sentence}
        </p>
      )}
    </li>
  );
}

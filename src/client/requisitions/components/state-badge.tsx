import type { RequisitionState } from '@/shared/requisitions.ts';

const tone: Record<RequisitionState, string> = {
  pendiente: 'bg-amber-100 text-amber-900',
  aprobada: 'bg-green-100 text-green-800',
  rechazada: 'bg-red-100 text-red-800',
  devuelta: 'bg-orange-100 text-orange-900',
  colocada: 'bg-brand-100 text-brand-800',
  cancelada: 'bg-slate-200 text-slate-700',
};

export function StateBadge({ state, label }: { state: RequisitionState; label: string }) {
  return (
    <span
      className={`inline-block whitespace-nowrap rounded-full px-2.5 py-0.5 text-xs font-semibold ${tone[state]}`}
    >
      {label}
    </span>
  );
}

export const formatDay = (iso: string) =>
  new Intl.DateTimeFormat('es-MX', { dateStyle: 'medium', timeZone: 'America/Mexico_City' }).format(
    new Date(iso),
  );

export const formatMoment = (iso: string) =>
  new Intl.DateTimeFormat('es-MX', {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'America/Mexico_City',
  }).format(new Date(iso));

import type { ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';

/** Small pieces shared by the back-office screens. */

const dateTime = new Intl.DateTimeFormat('es-MX', {
  timeZone: 'America/Mexico_City',
  dateStyle: 'medium',
  timeStyle: 'short',
});
const day = new Intl.DateTimeFormat('es-MX', { timeZone: 'UTC', dateStyle: 'medium' });

export const formatDateTime = (iso: string | null) => (iso ? dateTime.format(new Date(iso)) : '—');
/** A YYYY-MM-DD day as written in Mexico ('15 ene 2099'). */
export const formatDay = (ymd: string | null) => (ymd ? day.format(new Date(`${ymd}T00:00:00Z`)) : '—');

const STATUS_TONES: Record<string, string> = {
  pending_payment: 'bg-slate-100 text-slate-700 ring-slate-300',
  paid: 'bg-amber-50 text-amber-800 ring-amber-300',
  preparing: 'bg-sky-50 text-sky-800 ring-sky-300',
  partially_shipped: 'bg-indigo-50 text-indigo-700 ring-indigo-200',
  shipped: 'bg-indigo-50 text-indigo-800 ring-indigo-300',
  delivered: 'bg-green-50 text-green-800 ring-green-300',
  payment_failed: 'bg-red-50 text-red-700 ring-red-200',
  cancelled: 'bg-red-50 text-red-700 ring-red-200',
  issued: 'bg-green-50 text-green-800 ring-green-300',
  pending: 'bg-slate-100 text-slate-700 ring-slate-300',
  active: 'bg-green-50 text-green-800 ring-green-300',
  inactive: 'bg-slate-100 text-slate-600 ring-slate-300',
};

export function Badge({ tone, children }: { tone: string; children: ReactNode }) {
  return (
    <span
      className={`inline-flex items-center whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${STATUS_TONES[tone] ?? STATUS_TONES.pending}`}
    >
      {children}
    </span>
  );
}

export const buttonClass = {
  primary:
    'inline-flex items-center justify-center gap-2 rounded-lg bg-brand-700 px-4 py-2 text-sm font-semibold text-white shadow-sm transition hover:bg-brand-800 disabled:cursor-not-allowed disabled:opacity-60',
  secondary:
    'inline-flex items-center justify-center gap-2 rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-700 shadow-sm transition hover:border-brand-500 hover:text-brand-700 disabled:cursor-not-allowed disabled:opacity-60',
  danger:
    'inline-flex items-center justify-center gap-2 rounded-lg border border-red-300 bg-white px-4 py-2 text-sm font-semibold text-red-700 shadow-sm transition hover:bg-red-50 disabled:cursor-not-allowed disabled:opacity-60',
};

export const fieldClass =
  'block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm outline-none focus:border-brand-500 focus:ring-2 focus:ring-brand-100 aria-[invalid=true]:border-red-400';

export function Panel({
  title,
  actions,
  children,
}: {
  title?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className="rounded-xl border border-slate-200 bg-white shadow-sm">
      {title || actions ? (
        <header className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-100 px-4 py-3 sm:px-5">
          {title ? <h2 className="text-base font-semibold text-slate-900">{title}</h2> : <span />}
          {actions}
        </header>
      ) : null}
      <div className="p-4 sm:p-5">{children}</div>
    </section>
  );
}

export function ScreenTitle({
  title,
  subtitle,
  actions,
}: {
  title: ReactNode;
  subtitle?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="mb-5 flex flex-wrap items-end justify-between gap-3">
      <div>
        <h1 className="text-xl font-semibold text-slate-900 sm:text-2xl">{title}</h1>
        {subtitle ? <p className="mt-1 text-sm text-slate-500">{subtitle}</p> : null}
      </div>
      {actions}
    </div>
  );
}

/** A table that scrolls sideways inside its card on narrow screens instead of widening the page. */
export function DataTable({
  head,
  children,
  empty,
}: {
  head: ReactNode;
  children: ReactNode;
  empty?: string | null;
}) {
  return (
    <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-500">
          {head}
        </thead>
        <tbody className="divide-y divide-slate-100">{children}</tbody>
      </table>
      {empty ? <p className="px-4 py-10 text-center text-sm text-slate-500">{empty}</p> : null}
    </div>
  );
}

export const th = 'whitespace-nowrap px-4 py-3';
export const td = 'whitespace-nowrap px-4 py-3 text-slate-700';

/** 'Anterior · Página 2 de 7 · Siguiente', keeping the other query parameters. */
export function Pager({ page, pages, total }: { page: number; pages: number; total: number }) {
  const [params] = useSearchParams();
  const hrefFor = (p: number) => {
    const next = new URLSearchParams(params);
    next.set('page', String(p));
    return `?${next.toString()}`;
  };
  const link =
    'rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 hover:border-brand-500';
  return (
    <nav
      aria-label="Paginación"
      className="mt-4 flex flex-wrap items-center justify-between gap-3 text-sm text-slate-600"
    >
      <span>
        {total.toLocaleString('es-MX')} {total === 1 ? 'resultado' : 'resultados'} · página {page} de {pages}
      </span>
      <span className="flex gap-2">
        {page > 1 ? (
          <Link className={link} to={hrefFor(page - 1)}>
            Anterior
          </Link>
        ) : null}
        {page < pages ? (
          <Link className={link} to={hrefFor(page + 1)}>
            Siguiente
          </Link>
        ) : null}
      </span>
    </nav>
  );
}

/** Reads a File as base64 (without the data: prefix). */
export function fileToBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(new Error('No se pudo leer el archivo'));
    reader.readAsDataURL(file);
  });
}

/** The server's message for each field of a refused request (it validates again with the same schema). */
export const serverFields = (error: unknown): Record<string, string> =>
  (error as { fields?: Record<string, string> } | null)?.fields ?? {};

/** A field's message under it, in red (the form's schema or the server's answer). */
export function FieldMessage({ message }: { message: string | undefined }) {
  return message ? <span className="mt-1 block text-xs text-red-600">{message}</span> : null;
}

/** How long something has waited, as staff scan a queue: 'menos de 1 h', '5 h', '3 d 4 h'. */
export function formatAgeHours(hours: number): string {
  if (hours < 1) return 'menos de 1 h';
  if (hours < 48) return `${hours} h`;
  const days = Math.floor(hours / 24);
  const rest = hours % 24;
  return rest === 0 ? `${days} d` : `${days} d ${rest} h`;
}

/** Whole hours since an ISO date-time (a refund's age on the order screen; the queue gets it from the server). */
export const hoursSince = (iso: string) =>
  Math.max(0, Math.floor((Date.now() - Date.parse(iso)) / 3_600_000));

import { type FormEvent, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Alert } from '@/client/ui/alert.tsx';
import { useDocumentTitle } from '@/client/ui/page-heading.tsx';
import { Spinner } from '@/client/ui/spinner.tsx';
import { AUDIT_ACTION_LABELS, type AuditEntry } from '@/shared/schemas/admin.ts';
import { useAudit } from '../api/get-audit.ts';
import { buttonClass, fieldClass, formatDateTime, Pager, ScreenTitle } from '../components/admin-ui.tsx';

const ENTITY_LABELS: Record<string, string> = {
  order: 'Pedido',
  product: 'Producto',
  catalogue: 'Importación',
  invoice: 'Factura',
  user: 'Cuenta',
  quotation: 'Cotización',
  institution: 'Institución',
  synonym: 'Sinónimo',
  export: 'Exportación',
};

const short = (value: unknown) => {
  if (value === null || value === undefined) return '';
  const text = JSON.stringify(value);
  return text.length > 160 ? `${text.slice(0, 160)}…` : text;
};

/** Who did what and when, newest first (the order detail, the product screen and the log). */
export function AuditList({
  entries,
  empty,
  showEntity = false,
}: {
  entries: AuditEntry[];
  empty: string;
  showEntity?: boolean;
}) {
  if (entries.length === 0) return <p className="text-sm text-slate-500">{empty}</p>;
  return (
    <ol className="grid gap-3">
      {entries.map((e) => (
        <li key={e.id} className="border-l-2 border-brand-200 pl-3 text-sm">
          <p className="font-medium text-slate-900">
            {e.actionLabel}
            {showEntity ? (
              <span className="font-normal text-slate-500">
                {' '}
                · {ENTITY_LABELS[e.entityType] ?? e.entityType} {e.entityId}
              </span>
            ) : null}
          </p>
          <p className="text-xs text-slate-500">
            {formatDateTime(e.createdAt)} · {e.actor}
          </p>
          {showEntity && (e.before || e.after) ? (
            <p className="mt-1 break-all font-mono text-[11px] text-slate-500">
              {e.before ? `antes ${short(e.before)} ` : ''}
              {e.after ? `después ${short(e.after)}` : ''}
            </p>
          ) : null}
        </li>
      ))}
    </ol>
  );
}

const FILTERS = ['actor', 'action', 'entityType', 'entityId', 'from', 'to'] as const;
type Filters = Record<(typeof FILTERS)[number], string>;

/** The log's filters: who, what, on what, between which days (Mexico City); kept in the address. */
function AuditFilters({ initial, onApply }: { initial: Filters; onApply: (filters: Filters) => void }) {
  const [form, setForm] = useState(initial);
  const set = (key: keyof Filters) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [key]: e.target.value }));
  const label = 'block text-xs font-medium text-slate-600';
  return (
    <form
      aria-label="Filtrar la bitácora"
      className="mb-4 grid gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-3 lg:grid-cols-6"
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        onApply(form);
      }}
    >
      <label className={label}>
        Quién (correo)
        <input
          className={`${fieldClass} mt-1`}
          value={form.actor}
          onChange={set('actor')}
          placeholder="laura@"
        />
      </label>
      <label className={label}>
        Acción
        <select className={`${fieldClass} mt-1`} value={form.action} onChange={set('action')}>
          <option value="">Todas</option>
          {ACTIONS.map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
        </select>
      </label>
      <label className={label}>
        Sobre
        <select className={`${fieldClass} mt-1`} value={form.entityType} onChange={set('entityType')}>
          <option value="">Todo</option>
          {Object.entries(ENTITY_LABELS).map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
        </select>
      </label>
      <label className={label}>
        Número o clave
        <input className={`${fieldClass} mt-1`} value={form.entityId} onChange={set('entityId')} />
      </label>
      <label className={label}>
        Desde
        <input type="date" className={`${fieldClass} mt-1`} value={form.from} onChange={set('from')} />
      </label>
      <label className={label}>
        Hasta
        <input type="date" className={`${fieldClass} mt-1`} value={form.to} onChange={set('to')} />
      </label>
      <div className="flex gap-2 sm:col-span-3 lg:col-span-6">
        <button type="submit" className={buttonClass.primary}>
          Filtrar
        </button>
        <button
          type="button"
          className={buttonClass.secondary}
          onClick={() => {
            const empty = Object.fromEntries(FILTERS.map((k) => [k, ''])) as Filters;
            setForm(empty);
            onApply(empty);
          }}
        >
          Quitar filtros
        </button>
      </div>
    </form>
  );
}

const ACTIONS = Object.entries(AUDIT_ACTION_LABELS).sort((a, b) => a[1].localeCompare(b[1], 'es'));

export function AuditScreen() {
  useDocumentTitle('Bitácora — Administración');
  const [params, setParams] = useSearchParams();
  const page = Number(params.get('page') ?? 1) || 1;
  const filters = Object.fromEntries(FILTERS.map((k) => [k, params.get(k) ?? ''])) as Filters;
  const { data, isPending, error } = useAudit({ page, ...filters });
  return (
    <>
      <ScreenTitle
        title="Bitácora"
        subtitle="Cada acción del personal: quién, qué, cuándo, antes y después."
      />
      <AuditFilters
        key={params.toString()}
        initial={filters}
        onApply={(next) =>
          setParams(Object.fromEntries(Object.entries(next).filter(([, v]) => v.trim() !== '')))
        }
      />
      {error ? <Alert tone="danger">{error.message}</Alert> : null}
      {isPending ? (
        <Spinner />
      ) : data ? (
        <div className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
          <AuditList entries={data.items} empty="Ninguna acción con estos filtros." showEntity />
          <Pager page={data.page} pages={data.pages} total={data.total} />
        </div>
      ) : null}
    </>
  );
}

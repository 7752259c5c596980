import { useSearchParams } from 'react-router';
import { Alert } from '@/client/ui/alert.tsx';
import { useDocumentTitle } from '@/client/ui/page-heading.tsx';
import { Spinner } from '@/client/ui/spinner.tsx';
import type { AuditEntry } from '@/shared/schemas/admin.ts';
import { useAudit } from '../api/get-audit.ts';
import { formatDateTime, Pager, ScreenTitle } from '../components/admin-ui.tsx';

const ENTITY_LABELS: Record<string, string> = {
  order: 'Pedido',
  product: 'Producto',
  catalogue: 'Importación',
  invoice: 'Factura',
  user: 'Cuenta',
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

export function AuditScreen() {
  useDocumentTitle('Bitácora — Administración');
  const [params] = useSearchParams();
  const page = Number(params.get('page') ?? 1) || 1;
  const { data, isPending, error } = useAudit({ page });
  return (
    <>
      <ScreenTitle
        title="Bitácora"
        subtitle="Cada acción del personal: quién, qué, cuándo, antes y después."
      />
      {error ? <Alert tone="danger">{error.message}</Alert> : null}
      {isPending ? (
        <Spinner />
      ) : data ? (
        <div className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
          <AuditList entries={data.items} empty="Todavía no hay acciones registradas." showEntity />
          <Pager page={data.page} pages={data.pages} total={data.total} />
        </div>
      ) : null}
    </>
  );
}

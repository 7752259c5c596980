import { useState } from 'react';
import { Spinner } from '@/client/ui/spinner.tsx';
import { INSTITUTION_ROLE_LABELS, isInstitutionRole } from '@/shared/institutions.ts';
import { useInstitutionAudit } from '../api/institutions.ts';

const when = (iso: string) =>
  new Intl.DateTimeFormat('es-MX', {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'America/Mexico_City',
  }).format(new Date(iso));

/** What changed about the detail of an entry: the e-mail and role it names, when it names them. */
function detailOf(after: unknown, before: unknown): string {
  const pick = (v: unknown) => (v && typeof v === 'object' ? (v as Record<string, unknown>) : {});
  const a = pick(after);
  const b = pick(before);
  const email = (a.email ?? b.email) as string | undefined;
  const raw = a.role ?? b.role;
  const role = isInstitutionRole(raw) ? INSTITUTION_ROLE_LABELS[raw] : undefined;
  const alias = (a.alias ?? b.alias) as string | undefined;
  return [email, role, alias].filter(Boolean).join(' · ');
}

/** «Bitácora»: every change to members, invitations, rules and addresses, with who made it (administrador only). */
export function AuditPanel({ institutionId }: { institutionId: number }) {
  const [page, setPage] = useState(1);
  const audit = useInstitutionAudit(institutionId, page, true);
  if (audit.isPending) return <Spinner />;
  if (audit.error) return <p className="text-sm text-red-700">{audit.error.message}</p>;
  const { items, pages } = audit.data;
  return (
    <div>
      <ol className="divide-y divide-slate-100 text-sm">
        {items.map((entry) => (
          <li key={entry.id} className="grid gap-0.5 py-2.5 sm:grid-cols-[10rem_minmax(0,1fr)] sm:gap-4">
            <time className="text-slate-500" dateTime={entry.createdAt}>
              {when(entry.createdAt)}
            </time>
            <div className="min-w-0">
              <p className="font-medium text-slate-900">{entry.actionLabel}</p>
              <p className="break-all text-slate-600">
                {detailOf(entry.after, entry.before)}
                <span className="text-slate-400"> — por {entry.actor}</span>
              </p>
            </div>
          </li>
        ))}
      </ol>
      {pages > 1 ? (
        <div className="mt-3 flex items-center gap-3 text-sm">
          <button
            type="button"
            disabled={page <= 1}
            onClick={() => setPage((p) => p - 1)}
            className="rounded-md border border-slate-300 px-3 py-1.5 disabled:opacity-50"
          >
            Anteriores
          </button>
          <span className="text-slate-600">
            Página {page} de {pages}
          </span>
          <button
            type="button"
            disabled={page >= pages}
            onClick={() => setPage((p) => p + 1)}
            className="rounded-md border border-slate-300 px-3 py-1.5 disabled:opacity-50"
          >
            Siguientes
          </button>
        </div>
      ) : null}
    </div>
  );
}

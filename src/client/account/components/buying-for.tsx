import { useId } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { showServerError } from '@/client/ui/server-errors.ts';
import { INSTITUTION_ROLE_LABELS } from '@/shared/institutions.ts';
import { useChooseInstitution, useMyInstitutions } from '../api/institutions.ts';

const PERSONAL = 'personal';

/**
 * «Comprando para» (issue 34, decision 058): a thin strip under the header, only for a signed-in person who belongs
 * to an institution. Loaded lazily by the header once the session is known, so shoppers never download it.
 */
export default function BuyingFor() {
  const id = useId();
  const mine = useMyInstitutions();
  const choose = useChooseInstitution();
  const memberships = mine.data?.memberships ?? [];
  if (memberships.length === 0) return null;
  const active = memberships.find((m) => m.institution.id === mine.data?.activeId) ?? null;
  return (
    <div
      className={`border-t text-sm ${active ? 'border-amber-200 bg-amber-50 text-amber-950' : 'border-slate-200 bg-slate-50 text-slate-700'}`}
      data-testid="buying-for"
    >
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-3 gap-y-1 px-4 py-1.5">
        <label htmlFor={id} className="font-medium">
          Comprando para:
        </label>
        <select
          id={id}
          value={active ? String(active.institution.id) : PERSONAL}
          disabled={choose.isPending}
          onChange={(event) => {
            const value = event.target.value;
            choose.mutate(value === PERSONAL ? null : Number(value), {
              onSuccess: (answer) => {
                const chosen = answer.memberships.find((m) => m.institution.id === answer.activeId);
                toast.success(
                  chosen ? `Ahora compra para ${chosen.institution.razonSocial}` : 'Ahora compra para usted',
                );
              },
              onError: (error) => showServerError(error, 'No se pudo cambiar para quién compra'),
            });
          }}
          className="min-w-0 max-w-full flex-1 rounded-md border border-slate-300 bg-white px-2 py-1 text-sm font-semibold text-slate-900 sm:max-w-xl sm:flex-none"
        >
          <option value={PERSONAL}>Mí mismo (compra personal)</option>
          {memberships.map((m) => (
            <option key={m.institution.id} value={String(m.institution.id)}>
              {m.institution.razonSocial} · {INSTITUTION_ROLE_LABELS[m.role]}
            </option>
          ))}
        </select>
        {active ? (
          <Link
            to={`/cuenta/instituciones/${active.institution.id}`}
            className="hidden text-xs font-medium text-amber-900 underline underline-offset-2 hover:text-amber-700 sm:inline"
          >
            Ver institución
          </Link>
        ) : null}
      </div>
    </div>
  );
}

import { useId } from 'react';
import { inputClass } from '@/client/ui/form-field.tsx';
import { useInstitutionAddresses, useMyInstitutions } from '../api/institutions.ts';

/**
 * /orden while the session buys for an institution (issue 34): says so, reminds its purchase-order rule, and offers
 * the institution's shared addresses (campuses, laboratories) instead of the buyer's own. The server re-checks all
 * of it (src/server/institutions/order-rules.ts); nothing here decides.
 */
export function InstitutionShipTo({ onChange }: { onChange: (addressId: number | null) => void }) {
  const mine = useMyInstitutions();
  const active = mine.data?.memberships.find((m) => m.institution.id === mine.data?.activeId);
  if (!active) return null;
  return (
    <ActiveInstitution
      id={active.institution.id}
      name={active.institution.razonSocial}
      requiresPo={active.institution.requiresPurchaseOrder}
      onChange={onChange}
    />
  );
}

function ActiveInstitution({
  id,
  name,
  requiresPo,
  onChange,
}: {
  id: number;
  name: string;
  requiresPo: boolean;
  onChange: (addressId: number | null) => void;
}) {
  const select = useId();
  const addresses = useInstitutionAddresses(id);
  const list = addresses.data ?? [];
  return (
    <section
      aria-label="Compra institucional"
      className="rounded-xl border border-amber-200 bg-amber-50 p-5 text-sm text-amber-950 shadow-sm"
    >
      <p>
        Compra a nombre de <strong>{name}</strong>.
        {requiresPo ? ' La institución requiere el número de orden de compra.' : ''}
      </p>
      {list.length > 0 ? (
        <div className="mt-3">
          <label htmlFor={select} className="mb-1.5 block font-medium">
            Enviar a una dirección de la institución
          </label>
          <select
            id={select}
            className={`${inputClass(false)} bg-white`}
            defaultValue=""
            onChange={(e) => onChange(e.target.value ? Number(e.target.value) : null)}
          >
            <option value="">La dirección elegida arriba</option>
            {list.map((a) => (
              <option key={a.id} value={String(a.id)}>
                {a.alias} — {a.calleEnvio} {a.numExtEnvio}, {a.municipioEnvio}
              </option>
            ))}
          </select>
        </div>
      ) : null}
    </section>
  );
}

import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { showServerError } from '@/client/ui/server-errors.ts';
import { Spinner } from '@/client/ui/spinner.tsx';
import { MAX_SHIPPING_ADDRESSES, type SavedAddress } from '@/shared/schemas/account.ts';
import { useAddresses, useDeleteAddress, useSetDefaultAddress } from '../api/addresses.ts';
import { AddressForm } from './address-form.tsx';

/** The address lines of a card ('Mis direcciones'). */
function Lines({ a }: { a: SavedAddress }) {
  return (
    <address className="not-italic text-sm leading-relaxed text-slate-700">
      {a.nombreEnvio}
      <br />
      {a.calleEnvio} {a.numExtEnvio}
      {a.numIntEnvio ? `, Int. ${a.numIntEnvio}` : ''}
      <br />
      Col. {a.coloniaEnvio}, C.P. {a.cpEnvio}
      <br />
      {a.municipioEnvio}, {a.estadoEnvio} · Tel. {a.telefonoEnvio}
    </address>
  );
}

/**
 * 'Mis direcciones' in /cuenta/domicilio (issue 20): up to ten named addresses (lab, warehouse, campus), one the
 * default that checkout proposes. The default cannot be deleted: the buyer first makes another the default.
 * Without any address yet, the form of the first one.
 */
export function MyAddresses() {
  const list = useAddresses();
  const setDefault = useSetDefaultAddress();
  const remove = useDeleteAddress();
  const [editing, setEditing] = useState<SavedAddress | 'new' | null>(null);
  // Reached by 'Cambiar dirección' at checkout (?volver=compra): the way back to the purchase stays in view.
  const fromCheckout = useSearchParams()[0].get('volver') === 'compra';
  if (list.isPending) return <Spinner />;
  const addresses = list.data ?? [];
  const back = fromCheckout ? (
    <Link
      to="/orden"
      className="mb-4 inline-flex items-center gap-1 text-sm font-semibold text-brand-700 hover:underline"
    >
      <span aria-hidden="true">←</span> Volver a la compra
    </Link>
  ) : null;
  if (addresses.length === 0)
    return <AddressForm submitLabel="Guardar" backTo={fromCheckout ? '/orden' : '/'} />;
  if (editing)
    return (
      <div>
        {back}
        <h3 className="mb-4 font-semibold text-slate-900">
          {editing === 'new' ? 'Nueva dirección' : `Modificar «${editing.alias}»`}
        </h3>
        <AddressForm
          submitLabel="Guardar"
          address={editing === 'new' ? null : editing}
          onSaved={() => setEditing(null)}
          onCancel={() => setEditing(null)}
        />
      </div>
    );
  const full = addresses.length >= MAX_SHIPPING_ADDRESSES;
  return (
    <div className="space-y-4">
      {back}
      <ul className="grid gap-3 sm:grid-cols-2">
        {addresses.map((a) => (
          <li
            key={a.id}
            data-testid="saved-address"
            className={`flex flex-col rounded-lg border p-4 ${
              a.isDefault ? 'border-brand-600 ring-1 ring-brand-600' : 'border-slate-200'
            }`}
          >
            <p className="mb-1 flex flex-wrap items-center gap-2 font-semibold text-slate-900">
              <span className="break-words">{a.alias}</span>
              {a.isDefault ? (
                <span className="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-medium text-brand-800">
                  Por omisión
                </span>
              ) : null}
            </p>
            <Lines a={a} />
            <div className="mt-auto flex flex-wrap gap-x-4 gap-y-2 pt-3 text-sm">
              <button
                type="button"
                className="font-medium text-brand-700 hover:underline"
                onClick={() => setEditing(a)}
                aria-label={`Modificar ${a.alias}`}
              >
                Modificar
              </button>
              {a.isDefault ? null : (
                <>
                  <button
                    type="button"
                    className="font-medium text-brand-700 hover:underline"
                    disabled={setDefault.isPending}
                    aria-label={`Usar ${a.alias} por omisión`}
                    onClick={() =>
                      setDefault.mutate(a.id, {
                        onSuccess: () => toast.success(`«${a.alias}» es ahora su dirección por omisión`),
                        onError: (error) => showServerError(error, 'No se pudo cambiar la dirección'),
                      })
                    }
                  >
                    Usar por omisión
                  </button>
                  <button
                    type="button"
                    className="font-medium text-red-700 hover:underline"
                    disabled={remove.isPending}
                    aria-label={`Eliminar ${a.alias}`}
                    onClick={() =>
                      remove.mutate(a.id, {
                        onSuccess: (r) => toast.success(r.message),
                        onError: (error) => showServerError(error, 'No se pudo eliminar la dirección'),
                      })
                    }
                  >
                    Eliminar
                  </button>
                </>
              )}
            </div>
          </li>
        ))}
      </ul>
      <p className="text-sm text-slate-600">
        La dirección por omisión es la que proponemos al comprar; en la compra puede elegir otra. Para
        eliminarla, primero elija otra por omisión.
      </p>
      {full ? (
        <p className="text-sm text-amber-800">
          Tiene {MAX_SHIPPING_ADDRESSES} direcciones, el máximo. Elimine una que ya no use para agregar otra.
        </p>
      ) : (
        <button
          type="button"
          onClick={() => setEditing('new')}
          className="rounded-lg border border-brand-700 px-4 py-2 text-sm font-semibold text-brand-700 hover:bg-brand-50"
        >
          Agregar dirección
        </button>
      )}
    </div>
  );
}

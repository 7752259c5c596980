import { Link } from 'react-router';
import type { SavedAddress } from '@/shared/schemas/account.ts';

type AddressField =
  | 'nombreEnvio'
  | 'telefonoEnvio'
  | 'cpEnvio'
  | 'calleEnvio'
  | 'numExtEnvio'
  | 'numIntEnvio'
  | 'coloniaEnvio'
  | 'municipioEnvio'
  | 'ciudadEnvio'
  | 'estadoEnvio'
  | 'paisEnvio';

/** The address lines as the shop prints them everywhere (checkout, confirmation, receipt). */
export function AddressLines({ address }: { address: Record<AddressField, string> }) {
  return (
    <address className="not-italic text-sm leading-relaxed text-slate-700">
      <span className="font-medium text-slate-900">{address.nombreEnvio}</span>
      <br />
      {address.calleEnvio} {address.numExtEnvio}
      {address.numIntEnvio ? `, Int. ${address.numIntEnvio}` : ''}
      <br />
      Col. {address.coloniaEnvio}, C.P. {address.cpEnvio}
      <br />
      {address.municipioEnvio}, {address.ciudadEnvio}, {address.estadoEnvio}
      <br />
      {address.paisEnvio || 'México'} · Tel. {address.telefonoEnvio}
    </address>
  );
}

/** 'Cambiar dirección' leads to 'Mis direcciones', which then offers the way back to the purchase. */
export const CHANGE_ADDRESS = '/cuenta/domicilio?volver=compra';

/**
 * /orden: where the order goes, with 'Cambiar dirección'; without one, payment stays hidden. With several saved
 * addresses ('Mis direcciones', issue 20) the buyer picks one; the default comes chosen. The server takes only
 * the chosen id and copies its own copy of that address into the order.
 */
export function AddressCard({
  address,
  loading,
  addresses = [],
  onSelect,
}: {
  address: SavedAddress | null;
  loading: boolean;
  addresses?: SavedAddress[];
  onSelect?: (id: number) => void;
}) {
  return (
    <section aria-labelledby="envio" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <div className="mb-3 flex items-baseline justify-between gap-3">
        <h2 id="envio" className="font-semibold text-slate-900">
          Dirección de envío
        </h2>
        {address && (
          <Link to={CHANGE_ADDRESS} className="text-sm font-medium text-brand-700 hover:underline">
            Cambiar dirección
          </Link>
        )}
      </div>
      {loading ? (
        <p className="text-sm text-slate-500">Cargando…</p>
      ) : address ? (
        <>
          {addresses.length > 1 && onSelect ? (
            <fieldset className="mb-4 min-w-0">
              <legend className="mb-2 text-sm font-medium text-slate-700">Enviar a</legend>
              <div className="grid min-w-0 gap-2">
                {addresses.map((a) => (
                  <label
                    key={a.id}
                    className={`flex min-w-0 cursor-pointer items-start gap-2 rounded-lg border p-3 text-sm ${
                      a.id === address.id
                        ? 'border-brand-600 bg-brand-50'
                        : 'border-slate-200 hover:bg-slate-50'
                    }`}
                  >
                    <input
                      type="radio"
                      name="direccion"
                      value={a.id}
                      checked={a.id === address.id}
                      onChange={() => onSelect(a.id)}
                      className="mt-0.5 size-4 accent-brand-700"
                    />
                    <span className="min-w-0">
                      <span className="block font-medium text-slate-900">
                        {a.alias}
                        {a.isDefault ? (
                          <span className="font-normal text-slate-500"> · por omisión</span>
                        ) : null}
                      </span>
                      <span className="block truncate text-slate-600">
                        {a.calleEnvio} {a.numExtEnvio}, {a.municipioEnvio}
                      </span>
                    </span>
                  </label>
                ))}
              </div>
            </fieldset>
          ) : null}
          <AddressLines address={address} />
        </>
      ) : (
        <div className="rounded-lg border border-amber-200 bg-amber-50 p-4 text-sm">
          <p className="font-semibold text-amber-900">Sin información de envío</p>
          <p className="mt-1 text-amber-900">Ingrese su dirección para poder continuar</p>
          <Link to="/envio" className="mt-3 inline-block font-semibold text-brand-700 hover:underline">
            Agregar dirección
          </Link>
        </div>
      )}
    </section>
  );
}

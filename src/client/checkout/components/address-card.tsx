import { Link } from 'react-router';
import type { ShippingAddress } from '@/shared/schemas/account.ts';

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

/** /orden: where the order goes, with 'Cambiar dirección'; without one, payment stays hidden. */
export function AddressCard({ address, loading }: { address: ShippingAddress | null; loading: boolean }) {
  return (
    <section aria-labelledby="envio" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <div className="mb-3 flex items-baseline justify-between gap-3">
        <h2 id="envio" className="font-semibold text-slate-900">
          Dirección de envío
        </h2>
        {address && (
          <Link to="/cuenta/domicilio" className="text-sm font-medium text-brand-700 hover:underline">
            Cambiar dirección
          </Link>
        )}
      </div>
      {loading ? (
        <p className="text-sm text-slate-500">Cargando…</p>
      ) : address ? (
        <AddressLines address={address} />
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

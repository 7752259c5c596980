import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { FiscalProfile } from '@/shared/schemas/invoice.ts';

/**
 * 'Facturar esta compra' (issue 20): one of the buyer's saved fiscal profiles; the server issues the CFDI as
 * soon as the order is paid and mails the XML and the PDF.
 */
export function InvoiceAtPurchase({ onChange }: { onChange: (profileId: number | null) => void }) {
  const profiles = useQuery({
    queryKey: ['fiscal-profiles'],
    queryFn: () =>
      apiFetch<{ profiles: FiscalProfile[] }>('/api/account/fiscal-profiles', { timeoutMs: 5000 }),
  });
  const list = profiles.data?.profiles ?? [];
  const [wanted, setWanted] = useState(false);
  const [chosen, setChosen] = useState<number | null>(null);
  const selected = chosen ?? list.find((p) => p.isDefault)?.id ?? list[0]?.id ?? null;
  useEffect(() => {
    onChange(wanted ? selected : null);
  }, [wanted, selected, onChange]);
  if (profiles.isPending) return null;
  return (
    <div className="mb-4 rounded-lg border border-slate-200 p-3 text-sm">
      {list.length === 0 ? (
        <p className="text-slate-600">
          ¿Necesita factura? Guarde sus{' '}
          <Link to="/cuenta/fiscales" className="font-medium text-brand-700 hover:underline">
            datos fiscales
          </Link>{' '}
          y podrá facturar al pagar, o solicítela después desde su historial.
        </p>
      ) : (
        <>
          <label className="flex items-center gap-2 font-medium text-slate-800">
            <input
              type="checkbox"
              className="size-4 accent-brand-700"
              checked={wanted}
              onChange={(e) => setWanted(e.target.checked)}
            />
            Facturar esta compra
          </label>
          {wanted ? (
            <>
              <select
                aria-label="Datos fiscales para la factura"
                className="mt-2 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm"
                value={selected ?? ''}
                onChange={(e) => setChosen(Number(e.target.value))}
              >
                {list.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.rfc} · {p.nombreFiscal} · uso {p.usoCfdi}
                  </option>
                ))}
              </select>
              <p className="mt-1 text-xs text-slate-500">
                Emitimos su CFDI en cuanto se confirme el pago y le enviamos el XML y el PDF por correo.
              </p>
            </>
          ) : null}
        </>
      )}
    </div>
  );
}

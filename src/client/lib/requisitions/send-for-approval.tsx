import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { ApiError, apiFetch } from '@/client/lib/api-client.ts';
import { setCartItems } from '@/client/lib/cart-store.ts';
import { useSingleFlight } from '@/client/lib/use-single-flight.ts';
import { TextField } from '@/client/ui/form-field.tsx';
import type { RequisitionContext, RequisitionDetail } from '@/shared/schemas/requisitions.ts';

/**
 * «Enviar a aprobación» on the cart (issue 34, decision 059), shown only while the session buys for an
 * institution; loaded lazily by the cart page, never with the shop's first page. The server prices the cart into
 * a quotation for the institution and mails the approvers; the browser sends codes and quantities only.
 */
const button =
  'inline-flex w-full items-center justify-center rounded-md border border-brand-700 bg-white px-5 py-3 font-semibold text-brand-700 hover:bg-brand-50 disabled:cursor-wait disabled:opacity-70';

export function SendForApproval({ items }: { items: { code: string; quantity: number }[] }) {
  const context = useQuery({
    queryKey: ['requisition-context'],
    queryFn: () => apiFetch<RequisitionContext>('/api/requisitions/context', { timeoutMs: 5000 }),
    staleTime: 30_000,
    retry: 0,
  });
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState({ note: '', costCentre: '', project: '' });
  const flight = useSingleFlight();
  const navigate = useNavigate();
  const institution = context.data?.institution;
  if (!institution) return null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    flight.run(async () => {
      try {
        const r = await apiFetch<RequisitionDetail>('/api/requisitions', {
          method: 'POST',
          body: { items, ...form },
          timeoutMs: 30_000,
        });
        // The cart became the requisition (as a placed order empties it).
        setCartItems([]);
        toast.success(`Requisición ${r.folio} enviada a aprobación`);
        navigate(`/requisiciones/${r.id}`);
      } catch (error) {
        toast.error(error instanceof ApiError && error.status !== 0 ? error.message : 'Error de conexión');
      }
    });
  };

  if (!open)
    return (
      <button type="button" className={button} onClick={() => setOpen(true)}>
        Enviar a aprobación
      </button>
    );
  return (
    <form onSubmit={submit} className="space-y-3 rounded-md border border-slate-200 bg-slate-50 p-3">
      <p className="text-sm text-slate-700">
        Para <strong>{institution.razonSocial}</strong>. Se cotiza a los precios de hoy y se avisa a quien
        aprueba.
      </p>
      <TextField
        label={institution.costCentreLabel}
        value={form.costCentre}
        maxLength={80}
        onChange={(e) => setForm({ ...form, costCentre: e.target.value })}
      />
      <TextField
        label={institution.projectLabel}
        value={form.project}
        maxLength={80}
        onChange={(e) => setForm({ ...form, project: e.target.value })}
      />
      <div>
        <label htmlFor="approval-note" className="mb-1.5 block text-sm font-medium text-slate-700">
          Nota para quien aprueba
        </label>
        <textarea
          id="approval-note"
          rows={2}
          maxLength={1000}
          className="block w-full rounded-md border border-slate-300 px-3 py-2 text-sm"
          value={form.note}
          onChange={(e) => setForm({ ...form, note: e.target.value })}
        />
      </div>
      <button type="submit" className={button} disabled={flight.busy}>
        {flight.busy ? 'Enviando…' : 'Enviar la requisición'}
      </button>
    </form>
  );
}

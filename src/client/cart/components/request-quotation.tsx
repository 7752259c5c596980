import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { ApiError, apiFetch } from '@/client/lib/api-client.ts';
import { useSingleFlight } from '@/client/lib/use-single-flight.ts';
import { TextField } from '@/client/ui/form-field.tsx';
import type { CreateQuotation, QuotationDetail } from '@/shared/schemas/quotations.ts';

/**
 * The form's rules (zod, ≈ 25 ms of CPU to evaluate on a phone) load when the form is opened, not with the cart
 * page: the cart's start is hydration only (docs/decisions/034).
 */
const loadRules = () => import('@/shared/schemas/quotations.ts');

const secondaryButton =
  'inline-flex w-full items-center justify-center rounded-md border border-brand-700 bg-white px-5 py-3 font-semibold text-brand-700 hover:bg-brand-50 disabled:cursor-wait disabled:opacity-70';

/**
 * 'Solicitar cotización' (issue 20): the cart's codes and quantities, and optionally who it is for; the server
 * prices it, gives it a folio and mails the PDF. Then 'Mis cotizaciones' shows it.
 */
export function RequestQuotation({ items }: { items: { code: string; quantity: number }[] }) {
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState({ institution: '', rfc: '', purchaseOrder: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const flight = useSingleFlight();
  const navigate = useNavigate();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const rules = await loadRules().catch(() => null);
    if (!rules) {
      toast.error('Error de conexión');
      return;
    }
    const { createQuotationSchema } = rules;
    const body: CreateQuotation = {
      items,
      ...(form.institution.trim() ? { institution: form.institution } : {}),
      ...(form.rfc.trim() ? { rfc: form.rfc } : {}),
      ...(form.purchaseOrder.trim() ? { purchaseOrder: form.purchaseOrder } : {}),
    };
    const checked = createQuotationSchema.safeParse(body);
    if (!checked.success) {
      const next: Record<string, string> = {};
      for (const issue of checked.error.issues) next[String(issue.path[0])] ??= issue.message;
      setErrors(next);
      return;
    }
    setErrors({});
    void flight.run(async () => {
      try {
        const q = await apiFetch<QuotationDetail>('/api/quotations', {
          method: 'POST',
          body,
          timeoutMs: 20_000,
        });
        toast.success(`Cotización ${q.folio} generada. Se la enviamos por correo en PDF.`);
        navigate(`/cotizaciones?folio=${encodeURIComponent(q.folio)}`);
      } catch (error) {
        if (error instanceof ApiError && error.fields) setErrors(error.fields);
        toast.error(error instanceof ApiError && error.status !== 0 ? error.message : 'Error de conexión');
      }
    });
  };

  if (!open)
    return (
      <button
        type="button"
        className={secondaryButton}
        onClick={() => {
          void loadRules();
          setOpen(true);
        }}
      >
        Solicitar cotización
      </button>
    );
  const field = (name: keyof typeof form) => ({
    value: form[name],
    error: errors[name],
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => setForm((f) => ({ ...f, [name]: e.target.value })),
  });
  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label="Solicitar cotización"
      className="space-y-3 rounded-lg border border-brand-200 bg-white p-4"
    >
      <p className="text-sm font-semibold text-slate-900">Solicitar cotización</p>
      <p className="text-xs text-slate-600">
        Precios firmes por 30 días. Estos datos son opcionales y se imprimen en la cotización.
      </p>
      <TextField
        label="Institución o empresa"
        maxLength={150}
        autoComplete="organization"
        {...field('institution')}
      />
      <TextField label="RFC" maxLength={13} autoCapitalize="characters" {...field('rfc')} />
      <TextField
        label="Referencia u orden de compra"
        maxLength={40}
        hint="Por ejemplo, su número de requisición"
        {...field('purchaseOrder')}
      />
      <div className="flex gap-2">
        <button
          type="submit"
          disabled={flight.busy}
          aria-busy={flight.busy}
          className="inline-flex flex-1 items-center justify-center rounded-md bg-brand-700 px-4 py-2.5 font-semibold text-white hover:bg-brand-800 disabled:cursor-wait disabled:opacity-70"
        >
          {flight.busy ? 'Generando...' : 'Generar cotización'}
        </button>
        <button
          type="button"
          onClick={() => setOpen(false)}
          className="rounded-md border border-slate-300 bg-white px-4 py-2.5 text-sm font-medium text-slate-700 hover:bg-slate-50"
        >
          Cerrar
        </button>
      </div>
    </form>
  );
}

import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { apiFetch } from '@/client/lib/api-client.ts';
import { Alert } from '@/client/ui/alert.tsx';
import { FieldError, inputClass } from '@/client/ui/form-field.tsx';
import {
  DECLARATION_TEXT,
  DECLARATION_VERSION,
  DECLARED_USE_MAX,
  DECLARED_USE_MIN,
} from '@/shared/controlled.ts';
import { type ControlledDeclarationInput, declaredUseSchema } from '@/shared/schemas/controlled.ts';
import type { FiscalProfile } from '@/shared/schemas/invoice.ts';

/**
 * The end-use declaration (decision 030), shown at checkout only when the order has controlled chemicals: the RFC
 * it is registered with (the profile chosen for the invoice, else the default one, as the server decides), the
 * 'Uso final declarado' checked with the server's own rule, and the checkbox with the declaration's exact text.
 * Without a fiscal profile the buyer is sent to save one first.
 */
export function ControlledDeclaration({
  products,
  invoiceProfileId,
  onChange,
}: {
  products: readonly string[];
  invoiceProfileId: number | null;
  onChange: (declaration: ControlledDeclarationInput | null) => void;
}) {
  const id = useId();
  const profiles = useQuery({
    queryKey: ['fiscal-profiles'],
    queryFn: () =>
      apiFetch<{ profiles: FiscalProfile[] }>('/api/account/fiscal-profiles', { timeoutMs: 5000 }),
  });
  const list = profiles.data?.profiles ?? [];
  const profile =
    list.find((p) => p.id === invoiceProfileId) ?? list.find((p) => p.isDefault) ?? list[0] ?? null;
  const [use, setUse] = useState('');
  const [touched, setTouched] = useState(false);
  const [accepted, setAccepted] = useState(false);
  const checked = declaredUseSchema.safeParse(use);
  const error = checked.success ? undefined : checked.error.issues[0]?.message;
  const ready = profile !== null && checked.success && accepted;
  const declaredUse = checked.success ? checked.data : '';
  useEffect(() => {
    onChange(ready ? { declaredUse, accepted: true, textVersion: DECLARATION_VERSION } : null);
  }, [ready, declaredUse, onChange]);

  return (
    <section
      aria-labelledby={`${id}-title`}
      className="rounded-xl border border-amber-300 bg-amber-50/60 p-5 shadow-sm"
      data-testid="controlled-declaration"
    >
      <h2 id={`${id}-title`} className="font-semibold text-slate-900">
        Declaración de uso final
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        Su pedido incluye productos controlados por la Ley Federal para el Control de Precursores Químicos:{' '}
        <span className="font-medium">{products.join('; ')}</span>.
      </p>
      {profiles.isPending ? null : profile === null ? (
        <div className="mt-3">
          <Alert tone="danger">
            Para comprarlos necesitamos su RFC registrado.{' '}
            <Link to="/cuenta/fiscales" className="font-semibold underline">
              Registre sus datos fiscales
            </Link>{' '}
            y vuelva a esta página.
          </Alert>
        </div>
      ) : (
        <>
          <p className="mt-3 text-sm text-slate-700">
            Se registrará con el RFC <span className="font-mono font-semibold">{profile.rfc}</span> ·{' '}
            {profile.nombreFiscal}
          </p>
          <label htmlFor={`${id}-use`} className="mt-4 block text-sm font-medium text-slate-800">
            Uso final declarado
          </label>
          <textarea
            id={`${id}-use`}
            rows={3}
            maxLength={DECLARED_USE_MAX}
            value={use}
            onChange={(e) => setUse(e.target.value)}
            onBlur={() => setTouched(true)}
            aria-invalid={touched && error !== undefined}
            aria-describedby={`${id}-hint ${id}-error`}
            placeholder="Para qué y dónde usará los productos"
            className={`mt-1.5 ${inputClass(touched && error !== undefined)}`}
          />
          <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
            Al menos {DECLARED_USE_MIN} caracteres, p. ej. «Titulaciones ácido-base en prácticas de química
            analítica, Facultad de Química».
          </p>
          <FieldError id={`${id}-error`} message={touched ? error : undefined} />
          <label className="mt-4 flex items-start gap-2 text-sm text-slate-800">
            <input
              type="checkbox"
              className="mt-0.5 size-4 shrink-0 accent-brand-700"
              checked={accepted}
              onChange={(e) => setAccepted(e.target.checked)}
            />
            <span>{DECLARATION_TEXT}</span>
          </label>
        </>
      )}
    </section>
  );
}

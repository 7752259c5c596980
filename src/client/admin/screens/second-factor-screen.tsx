import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { Alert } from '@/client/ui/alert.tsx';
import { useDocumentTitle } from '@/client/ui/page-heading.tsx';
import { Spinner } from '@/client/ui/spinner.tsx';
import { shop } from '@/shared/shop.ts';
import { staffMeKey, useConfirmEnrolment, useEnrolment, useVerifySecondFactor } from '../api/staff.ts';
import { buttonClass, fieldClass } from '../components/admin-ui.tsx';

/**
 * The second step of a staff sign-in (decision 064): at the first sign-in, enrolment (QR code, the key to type by hand,
 * a code to confirm, then the ten recovery codes shown once); afterwards, a code from the app or a recovery code.
 */

function Card({ title, wide = false, children }: { title: string; wide?: boolean; children: ReactNode }) {
  return (
    <div className="flex min-h-screen items-center justify-center bg-slate-100 px-4 py-10">
      <div
        className={`w-full ${wide ? 'max-w-2xl' : 'max-w-sm'} rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8`}
      >
        <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">{shop.tradeName}</p>
        <h1 className="mt-1 text-2xl font-semibold text-slate-900">{title}</h1>
        {children}
      </div>
    </div>
  );
}

function CodeField({
  label,
  value,
  onChange,
  hint,
  autoFocus = false,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  hint: string;
  autoFocus?: boolean;
}) {
  const hintId = useId();
  return (
    <div>
      <label className="block text-sm font-medium text-slate-700">
        {label}
        <input
          className={`${fieldClass} mt-1 font-mono text-lg tracking-widest`}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          autoComplete="one-time-code"
          inputMode="text"
          maxLength={20}
          aria-describedby={hintId}
          // biome-ignore lint/a11y/noAutofocus: the only field of the step
          autoFocus={autoFocus}
        />
      </label>
      <p id={hintId} className="mt-1 text-xs text-slate-500">
        {hint}
      </p>
    </div>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const [saved, setSaved] = useState(false);
  return (
    <Card title="Guarde sus códigos de respaldo" wide>
      <p className="mt-2 text-sm text-slate-600">
        Si pierde su teléfono, cada uno de estos códigos le permite entrar <strong>una sola vez</strong> en
        lugar del código de la aplicación. Guárdelos en un lugar seguro: no se volverán a mostrar.
      </p>
      <ol
        aria-label="Códigos de respaldo"
        className="mt-5 grid grid-cols-2 gap-2 rounded-xl bg-slate-50 p-4 font-mono text-base text-slate-900 sm:grid-cols-5"
      >
        {codes.map((code) => (
          <li key={code} className="rounded-md bg-white px-2 py-1.5 text-center ring-1 ring-slate-200">
            {code}
          </li>
        ))}
      </ol>
      <div className="mt-5 flex flex-wrap items-center gap-3">
        <button
          type="button"
          className={buttonClass.secondary}
          onClick={() => {
            void navigator.clipboard?.writeText(codes.join('\n')).catch(() => undefined);
          }}
        >
          Copiar los códigos
        </button>
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input type="checkbox" checked={saved} onChange={(e) => setSaved(e.target.checked)} />
          Ya guardé mis códigos
        </label>
        <button type="button" className={`${buttonClass.primary} ml-auto`} disabled={!saved} onClick={onDone}>
          Continuar a la administración
        </button>
      </div>
    </Card>
  );
}

export function EnrolSecondFactor({ signOut }: { signOut: ReactNode }) {
  useDocumentTitle(`Verificación en dos pasos — ${shop.tradeName}`);
  const client = useQueryClient();
  const enrolment = useEnrolment();
  const confirm = useConfirmEnrolment();
  const [code, setCode] = useState('');
  const [codes, setCodes] = useState<string[] | null>(null);
  if (codes) {
    return (
      <RecoveryCodes codes={codes} onDone={() => void client.invalidateQueries({ queryKey: staffMeKey })} />
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    confirm.mutate(code.replace(/\s/g, ''), { onSuccess: (data) => setCodes(data.recoveryCodes) });
  };
  return (
    <Card title="Configure la verificación en dos pasos" wide>
      <p className="mt-2 text-sm text-slate-600">
        El personal puede reembolsar dinero y cancelar facturas, así que cada acceso pide, además de la
        contraseña, un código de una aplicación de autenticación (Google Authenticator, Microsoft
        Authenticator, 1Password…).
      </p>
      {enrolment.isPending ? <Spinner /> : null}
      {enrolment.error ? (
        <div className="mt-4">
          <Alert tone="danger">{enrolment.error.message}</Alert>
        </div>
      ) : null}
      {enrolment.data ? (
        <div className="mt-6 grid gap-6 sm:grid-cols-[12rem_1fr]">
          <img
            src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(enrolment.data.qrSvg)}`}
            alt="Código QR para su aplicación de autenticación"
            className="h-48 w-48 rounded-lg border border-slate-200 bg-white p-1"
          />
          <div className="grid content-start gap-4 text-sm text-slate-700">
            <ol className="list-decimal space-y-1 pl-5">
              <li>En la aplicación, agregue una cuenta y escanee el código QR.</li>
              <li>Si no puede escanearlo, escriba esta clave:</li>
            </ol>
            <p
              className="select-all rounded-lg bg-slate-50 px-3 py-2 font-mono text-base tracking-wider text-slate-900 ring-1 ring-slate-200"
              data-testid="totp-secret"
            >
              {enrolment.data.secretGrouped}
            </p>
            <form className="grid gap-3" onSubmit={submit} noValidate aria-label="Confirmar la verificación">
              <CodeField
                label="Código de 6 dígitos"
                value={code}
                onChange={setCode}
                hint="El que muestra la aplicación ahora; cambia cada 30 segundos."
                autoFocus
              />
              {confirm.error ? <Alert tone="danger">{confirm.error.message}</Alert> : null}
              <button type="submit" className={buttonClass.primary} disabled={confirm.isPending}>
                Activar
              </button>
            </form>
          </div>
        </div>
      ) : null}
      <div className="mt-6 border-t border-slate-100 pt-4 text-sm">{signOut}</div>
    </Card>
  );
}

export function VerifySecondFactor({ email, signOut }: { email: string; signOut: ReactNode }) {
  useDocumentTitle(`Verificación en dos pasos — ${shop.tradeName}`);
  const verify = useVerifySecondFactor();
  const [code, setCode] = useState('');
  return (
    <Card title="Verificación en dos pasos">
      <p className="mt-2 text-sm text-slate-600">
        Escriba el código que muestra su aplicación de autenticación para {email}.
      </p>
      <form
        className="mt-6 grid gap-4"
        noValidate
        aria-label="Código de verificación"
        onSubmit={(event) => {
          event.preventDefault();
          verify.mutate(code.trim());
        }}
      >
        <CodeField
          label="Código"
          value={code}
          onChange={setCode}
          hint="6 dígitos de la aplicación, o uno de sus códigos de respaldo (por ejemplo K7Q2M-XW4PD)."
          autoFocus
        />
        {verify.error ? <Alert tone="danger">{verify.error.message}</Alert> : null}
        <button type="submit" className={`${buttonClass.primary} w-full`} disabled={verify.isPending}>
          Verificar
        </button>
      </form>
      <p className="mt-4 text-xs text-slate-500">
        ¿Perdió su teléfono y sus códigos de respaldo? Pida a un administrador que restablezca su
        verificación.
      </p>
      <div className="mt-4 border-t border-slate-100 pt-4 text-sm">{signOut}</div>
    </Card>
  );
}

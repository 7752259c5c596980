import { type ChangeEvent, type InputHTMLAttributes, type ReactNode, type Ref, useId, useState } from 'react';

/** Form pieces shared by the sign-in screens, the account area and checkout. */

export const AlertCircleIcon = ({ className = 'size-4' }: { className?: string }) => (
  <svg
    className={className}
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth={2}
    strokeLinecap="round"
    strokeLinejoin="round"
    aria-hidden="true"
  >
    <circle cx="12" cy="12" r="10" />
    <path d="M12 8v4M12 16h.01" />
  </svg>
);

const EyeIcon = ({ off }: { off: boolean }) => (
  <svg
    className="size-5"
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth={2}
    strokeLinecap="round"
    strokeLinejoin="round"
    aria-hidden="true"
  >
    {off ? (
      <>
        <path d="M9.9 4.2A10 10 0 0 1 12 4c7 0 10 8 10 8a18 18 0 0 1-2.2 3.3M6.6 6.6A18 18 0 0 0 2 12s3 8 10 8a9.7 9.7 0 0 0 5.4-1.6" />
        <path d="M9.9 9.9a3 3 0 0 0 4.2 4.2M2 2l20 20" />
      </>
    ) : (
      <>
        <path d="M2 12s3-8 10-8 10 8 10 8-3 8-10 8S2 12 2 12z" />
        <circle cx="12" cy="12" r="3" />
      </>
    )}
  </svg>
);

/** A field's message: red, under the field, with an icon (spec §5). */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className="mt-1.5 flex items-start gap-1.5 text-sm text-red-600">
      <AlertCircleIcon className="mt-0.5 size-4 shrink-0" />
      <span>{message}</span>
    </p>
  );
}

export const inputClass = (invalid: boolean) =>
  `block w-full rounded-lg border bg-white px-3 py-2.5 text-[15px] text-slate-900 shadow-sm outline-none transition placeholder:text-slate-400 focus:ring-2 disabled:cursor-not-allowed disabled:bg-slate-100 disabled:text-slate-500 ${
    invalid
      ? 'border-red-400 focus:border-red-500 focus:ring-red-100'
      : 'border-slate-300 focus:border-brand-500 focus:ring-brand-100'
  }`;

type FieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'className'> & {
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
  /** Keeps only digits as the shopper types (phone, postal code, numbers). */
  digitsOnly?: boolean;
  ref?: Ref<HTMLInputElement>;
  className?: string;
};

export function TextField({
  label,
  error,
  hint,
  digitsOnly,
  onChange,
  className,
  ref,
  maxLength,
  ...input
}: FieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  // For digit fields the length is enforced after removing separators, so a pasted
  // '33-1234-5678' becomes '3312345678' instead of being cut at the tenth character.
  const handleChange = (e: ChangeEvent<HTMLInputElement>) => {
    if (digitsOnly) {
      const clean = e.target.value.replace(/\D/g, '').slice(0, maxLength);
      if (clean !== e.target.value) e.target.value = clean;
    }
    onChange?.(e);
  };
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <input
        id={id}
        ref={ref}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        className={inputClass(Boolean(error))}
        {...(digitsOnly ? { inputMode: 'numeric' as const } : { maxLength })}
        {...input}
        onChange={handleChange}
      />
      {hint && !error ? <p className="mt-1.5 text-xs text-slate-500">{hint}</p> : null}
      <FieldError id={errorId} message={error} />
    </div>
  );
}

/** A password input with its own show/hide toggle. */
export function PasswordField({ label, error, onChange, className, ref, ...input }: FieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const [visible, setVisible] = useState(false);
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <div className="relative">
        <input
          id={id}
          ref={ref}
          type={visible ? 'text' : 'password'}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          className={`${inputClass(Boolean(error))} pr-11`}
          onChange={onChange}
          {...input}
        />
        <button
          type="button"
          onClick={() => setVisible((v) => !v)}
          className="absolute inset-y-0 right-0 flex w-11 items-center justify-center rounded-r-lg text-slate-500 hover:text-brand-700"
          aria-label={visible ? 'Ocultar contraseña' : 'Mostrar contraseña'}
          aria-pressed={visible}
        >
          <EyeIcon off={visible} />
        </button>
      </div>
      <FieldError id={errorId} message={error} />
    </div>
  );
}

type Option = { value: string; label: string };

export function SelectField({
  label,
  error,
  options,
  placeholder,
  ref,
  className,
  ...select
}: Omit<InputHTMLAttributes<HTMLSelectElement>, 'className'> & {
  label: string;
  error?: string | undefined;
  options: readonly Option[];
  placeholder: string;
  ref?: Ref<HTMLSelectElement>;
  className?: string;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <select
        id={id}
        ref={ref}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        className={`${inputClass(Boolean(error))} appearance-none bg-[url('data:image/svg+xml;utf8,<svg xmlns=%22http://www.w3.org/2000/svg%22 viewBox=%220 0 24 24%22 fill=%22none%22 stroke=%22%2364748b%22 stroke-width=%222%22><path d=%22m6 9 6 6 6-6%22/></svg>')] bg-[length:1.25rem] bg-[right_0.6rem_center] bg-no-repeat pr-9`}
        {...select}
      >
        <option value="">{placeholder}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <FieldError id={errorId} message={error} />
    </div>
  );
}

/** The main button of a form; reads 'Cargando' (or the given text) while saving. */
export function SubmitButton({
  children,
  loading,
  loadingLabel = 'Cargando',
  className = '',
}: {
  children: ReactNode;
  loading: boolean;
  loadingLabel?: string;
  className?: string;
}) {
  return (
    <button
      type="submit"
      disabled={loading}
      aria-busy={loading}
      className={`inline-flex items-center justify-center gap-2 rounded-lg bg-brand-700 px-5 py-2.5 text-[15px] font-semibold text-white shadow-sm transition hover:bg-brand-800 focus-visible:outline-offset-2 disabled:cursor-wait disabled:opacity-80 ${className}`}
    >
      {loading ? (
        <>
          <span
            className="size-4 animate-spin rounded-full border-2 border-white/40 border-t-white"
            aria-hidden="true"
          />
          {loadingLabel}
        </>
      ) : (
        children
      )}
    </button>
  );
}

/** The live checklist of the password rule, each line green once met. */
export function PasswordChecklist({
  value,
  items,
}: {
  value: string;
  items: readonly { label: string; test: (v: string) => boolean }[];
}) {
  return (
    <ul className="grid gap-1 text-sm" aria-label="Requisitos de la contraseña">
      {items.map((item) => {
        const met = item.test(value);
        return (
          <li
            key={item.label}
            className={`flex items-center gap-2 ${met ? 'text-green-700' : 'text-slate-500'}`}
            data-met={met}
          >
            <span
              className={`flex size-4 shrink-0 items-center justify-center rounded-full text-[10px] font-bold ${met ? 'bg-green-600 text-white' : 'border border-slate-300'}`}
              aria-hidden="true"
            >
              {met ? '✓' : ''}
            </span>
            {item.label}
            <span className="sr-only">{met ? ' (cumplido)' : ' (pendiente)'}</span>
          </li>
        );
      })}
    </ul>
  );
}

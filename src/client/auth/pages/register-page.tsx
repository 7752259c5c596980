import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import { useRedirectSignedIn } from '@/client/lib/auth/require-signed-in.tsx';
import { PasswordChecklist, PasswordField, SubmitButton, TextField } from '@/client/ui/form-field.tsx';
import { useDocumentTitle } from '@/client/ui/page-heading.tsx';
import { showServerError } from '@/client/ui/server-errors.ts';
import { Spinner } from '@/client/ui/spinner.tsx';
import {
  passwordChecklist,
  type RegisterFormInput,
  type RegisterVerifyInput,
  registerFormSchema,
  registerVerifySchema,
} from '@/shared/schemas/auth.ts';
import { shop } from '@/shared/shop.ts';
import { useRegister, useVerifyRegistration } from '../api/register.ts';
import { AuthCard, linkClass } from '../components/auth-card.tsx';
import { redirectParam, safeRedirect } from '../redirect-target.ts';

const EMPTY: RegisterFormInput = {
  username: '',
  nombre: '',
  apellidoPat: '',
  apellidoMat: '',
  telefono: '',
  password: '',
  confirmPassword: '',
};

/**
 * /registro (spec §2 Registration, issue 23): the form, then the 6-digit code mailed to the shopper; the
 * code creates the account, signs the shopper in and goes to the redirect target. The first answer is the
 * same whether or not the e-mail already has an account (its owner gets a mail instead of a code).
 */
export function Component() {
  useDocumentTitle(`Registro | ${shop.tradeName}`);
  const [params] = useSearchParams();
  const target = safeRedirect(params.get('redirect'));
  const { pending, signedIn } = useRedirectSignedIn(target);
  const [sent, setSent] = useState<{ email: string; message: string } | null>(null);
  if (pending || signedIn) return <Spinner />;
  if (sent) return <CodeStep email={sent.email} message={sent.message} target={target} />;
  return <FormStep target={target} onSent={setSent} />;
}

function FormStep({
  target,
  onSent,
}: {
  target: string;
  onSent: (sent: { email: string; message: string }) => void;
}) {
  const signUp = useRegister();
  const {
    register,
    handleSubmit,
    watch,
    setError,
    formState: { errors },
  } = useForm<RegisterFormInput>({ resolver: zodResolver(registerFormSchema), defaultValues: EMPTY });
  const password = watch('password') ?? '';

  const onSubmit = handleSubmit(({ confirmPassword: _c, ...values }) =>
    signUp.mutate(values, {
      onSuccess: (data) => onSent({ email: values.username.trim().toLowerCase(), message: data.message }),
      onError: (error) =>
        showServerError(error, 'Error de conexión', (field, message) =>
          setError(field as keyof RegisterFormInput, { message }),
        ),
    }),
  );

  return (
    <AuthCard
      wide
      title="Registre una cuenta"
      subtitle={
        <Link to={`/ingresar?redirect=${redirectParam(target)}`} className={linkClass}>
          ¿Ya tiene una cuenta?
        </Link>
      }
    >
      <form onSubmit={onSubmit} noValidate className="grid gap-5 sm:grid-cols-2" aria-label="Registro">
        <TextField
          label="Correo electrónico"
          type="email"
          autoComplete="email"
          inputMode="email"
          className="sm:col-span-2"
          error={errors.username?.message}
          {...register('username')}
        />
        <TextField
          label="Nombre(s)"
          autoComplete="given-name"
          className="sm:col-span-2"
          error={errors.nombre?.message}
          {...register('nombre')}
        />
        <TextField
          label="Apellido paterno"
          autoComplete="family-name"
          error={errors.apellidoPat?.message}
          {...register('apellidoPat')}
        />
        <TextField
          label="Apellido materno (opcional)"
          error={errors.apellidoMat?.message}
          {...register('apellidoMat')}
        />
        <TextField
          label="Teléfono"
          type="tel"
          autoComplete="tel-national"
          digitsOnly
          maxLength={10}
          hint="10 dígitos, sin lada"
          className="sm:col-span-2"
          error={errors.telefono?.message}
          {...register('telefono')}
        />
        <PasswordField
          label="Contraseña"
          autoComplete="new-password"
          error={errors.password?.message}
          {...register('password')}
        />
        <PasswordField
          label="Confirmar contraseña"
          autoComplete="new-password"
          error={errors.confirmPassword?.message}
          {...register('confirmPassword')}
        />
        <div className="rounded-lg bg-slate-50 px-4 py-3 sm:col-span-2">
          <PasswordChecklist value={password} items={passwordChecklist} />
        </div>
        <div className="flex flex-col gap-3 sm:col-span-2">
          <SubmitButton loading={signUp.isPending} className="w-full">
            Registrarse
          </SubmitButton>
          <Link to="/" className="text-center text-sm font-medium text-slate-600 hover:text-brand-700">
            Volver
          </Link>
        </div>
      </form>
    </AuthCard>
  );
}

/** Step 2: the code from the mail. */
function CodeStep({ email, message, target }: { email: string; message: string; target: string }) {
  const verify = useVerifyRegistration();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<RegisterVerifyInput>({
    resolver: zodResolver(registerVerifySchema),
    defaultValues: { username: email, code: '' },
  });
  const onSubmit = handleSubmit((values) =>
    verify.mutate(values, {
      // Like signing in: the page reloads so every part of the shop starts from the new session.
      onSuccess: () => window.location.assign(target),
      onError: (error) =>
        showServerError(error, 'Error de conexión', (field, text) =>
          setError(field as keyof RegisterVerifyInput, { message: text }),
        ),
    }),
  );
  return (
    <AuthCard title="Confirme su correo" subtitle={<span role="status">{message}</span>}>
      <form onSubmit={onSubmit} noValidate className="grid gap-5" aria-label="Confirmación del registro">
        <input type="hidden" {...register('username')} />
        <TextField
          label="Código de verificación"
          inputMode="numeric"
          autoComplete="one-time-code"
          digitsOnly
          maxLength={6}
          autoFocus
          hint="6 dígitos; vale 15 minutos"
          error={errors.code?.message ?? errors.username?.message}
          {...register('code')}
        />
        <SubmitButton loading={verify.isPending || verify.isSuccess} className="w-full">
          Confirmar
        </SubmitButton>
        <Link
          to={`/registro?redirect=${redirectParam(target)}`}
          reloadDocument
          className="text-center text-sm font-medium text-slate-600 hover:text-brand-700"
        >
          Volver al registro
        </Link>
      </form>
    </AuthCard>
  );
}

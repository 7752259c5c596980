import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { useRedirectSignedIn } from '@/client/lib/auth/require-signed-in.tsx';
import { Alert } from '@/client/ui/alert.tsx';
import { PasswordChecklist, PasswordField, SubmitButton, TextField } from '@/client/ui/form-field.tsx';
import { useDocumentTitle } from '@/client/ui/page-heading.tsx';
import { showServerError } from '@/client/ui/server-errors.ts';
import { Spinner } from '@/client/ui/spinner.tsx';
import { passwordChecklist, type RecoveryResetInput, recoveryResetSchema } from '@/shared/schemas/auth.ts';
import { shop } from '@/shared/shop.ts';
import { forgetRecoveryEmail, recalledRecoveryEmail, useResetPassword } from '../api/recovery.ts';
import { AuthCard } from '../components/auth-card.tsx';

const primaryLink =
  'inline-flex w-full items-center justify-center rounded-lg bg-brand-700 px-5 py-2.5 text-[15px] font-semibold text-white shadow-sm hover:bg-brand-800';

/**
 * /codigo_recuperar: the code from the mail and a new password. The e-mail typed on /recuperar
 * travels along (it is asked for only when this tab does not remember it).
 */
export function Component() {
  useDocumentTitle(`Recuperar contraseña | ${shop.tradeName}`);
  const { pending, signedIn } = useRedirectSignedIn('/');
  const reset = useResetPassword();
  const [remembered] = useState(recalledRecoveryEmail);
  const [done, setDone] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    watch,
    setError,
    formState: { errors },
  } = useForm<RecoveryResetInput>({
    resolver: zodResolver(recoveryResetSchema),
    defaultValues: { username: remembered, recCode: '', newPass: '' },
  });
  const newPass = watch('newPass') ?? '';

  if (pending || signedIn) return <Spinner />;

  const onSubmit = handleSubmit((values) =>
    reset.mutate(values, {
      onSuccess: (data) => {
        forgetRecoveryEmail();
        setDone(data.message);
        toast.success(data.message);
      },
      onError: (error) =>
        showServerError(error, 'Error de conexión', (field, message) =>
          setError(field as keyof RecoveryResetInput, { message }),
        ),
    }),
  );

  return (
    <AuthCard
      title="Recuperar contraseña"
      subtitle="Escriba el código que le enviamos por correo y elija una nueva contraseña."
    >
      <form onSubmit={onSubmit} noValidate className="grid gap-5" aria-label="Cambiar contraseña">
        {remembered ? (
          <p className="rounded-lg bg-brand-50 px-4 py-3 text-sm text-brand-800">
            Enviamos el código a <strong className="break-all">{remembered}</strong>. Vale 15 minutos.
          </p>
        ) : (
          <TextField
            label="Correo electrónico"
            type="email"
            autoComplete="email"
            inputMode="email"
            error={errors.username?.message}
            {...register('username')}
          />
        )}
        <TextField
          label="Código de recuperación"
          autoComplete="one-time-code"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={16}
          className="[&_input]:font-mono [&_input]:uppercase [&_input]:tracking-[0.3em]"
          error={errors.recCode?.message}
          {...register('recCode')}
        />
        <PasswordField
          label="Nueva contraseña"
          autoComplete="new-password"
          error={errors.newPass?.message}
          {...register('newPass')}
        />
        <div className="rounded-lg bg-slate-50 px-4 py-3">
          <PasswordChecklist value={newPass} items={passwordChecklist} />
        </div>
        {done ? (
          <>
            <Alert tone="success">{done}</Alert>
            <Link to="/ingresar" className={primaryLink}>
              Continuar
            </Link>
          </>
        ) : (
          <SubmitButton loading={reset.isPending} className="w-full">
            Cambiar contraseña
          </SubmitButton>
        )}
        <Link to="/recuperar" className="text-center text-sm font-medium text-slate-600 hover:text-brand-700">
          Volver
        </Link>
      </form>
    </AuthCard>
  );
}

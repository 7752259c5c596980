import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { useRedirectSignedIn } from '@/client/lib/auth/require-signed-in.tsx';
import { Alert } from '@/client/ui/alert.tsx';
import { SubmitButton, TextField } from '@/client/ui/form-field.tsx';
import { useDocumentTitle } from '@/client/ui/page-heading.tsx';
import { showServerError } from '@/client/ui/server-errors.ts';
import { Spinner } from '@/client/ui/spinner.tsx';
import { type RecoveryRequestInput, recoveryRequestSchema } from '@/shared/schemas/auth.ts';
import { shop } from '@/shared/shop.ts';
import { rememberRecoveryEmail, useRequestRecoveryCode } from '../api/recovery.ts';
import { AuthCard } from '../components/auth-card.tsx';

/** /recuperar: asks for the e-mail; 'Continuar' appears once the server answered. */
export function Component() {
  useDocumentTitle(`Recuperar contraseña | ${shop.tradeName}`);
  const { pending, signedIn } = useRedirectSignedIn('/');
  const request = useRequestRecoveryCode();
  const [sent, setSent] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<RecoveryRequestInput>({
    resolver: zodResolver(recoveryRequestSchema),
    defaultValues: { username: '' },
  });

  if (pending || signedIn) return <Spinner />;

  const onSubmit = handleSubmit((values) =>
    request.mutate(values, {
      onSuccess: (data) => {
        rememberRecoveryEmail(values.username.trim().toLowerCase());
        setSent(data.message);
        toast.success(data.message);
      },
      onError: (error) => showServerError(error, 'Error de conexión'),
    }),
  );

  return (
    <AuthCard
      title="Recuperar contraseña"
      subtitle="Escriba el correo de su cuenta y le enviaremos un código para crear una nueva contraseña."
    >
      <form onSubmit={onSubmit} noValidate className="grid gap-5" aria-label="Recuperar contraseña">
        <TextField
          label="Correo electrónico"
          type="email"
          autoComplete="email"
          inputMode="email"
          autoFocus
          error={errors.username?.message}
          {...register('username')}
        />
        <SubmitButton loading={request.isPending} className="w-full">
          Mandar código de recuperación
        </SubmitButton>
        {sent ? (
          <>
            <Alert tone="success">{sent}</Alert>
            <Link
              to="/codigo_recuperar"
              className="inline-flex items-center justify-center rounded-lg border border-brand-700 px-5 py-2.5 text-[15px] font-semibold text-brand-700 hover:bg-brand-50"
            >
              Continuar
            </Link>
          </>
        ) : null}
        <Link to="/ingresar" className="text-center text-sm font-medium text-slate-600 hover:text-brand-700">
          Volver
        </Link>
      </form>
    </AuthCard>
  );
}

import { Link, useSearchParams } from 'react-router';
import { useLogin, useLoginForm } from '@/client/lib/auth/login.ts';
import { useRedirectSignedIn } from '@/client/lib/auth/require-signed-in.tsx';
import { PasswordField, SubmitButton, TextField } from '@/client/ui/form-field.tsx';
import { useDocumentTitle } from '@/client/ui/page-heading.tsx';
import { showServerError } from '@/client/ui/server-errors.ts';
import { Spinner } from '@/client/ui/spinner.tsx';
import { shop } from '@/shared/shop.ts';
import { AuthCard, linkClass } from '../components/auth-card.tsx';
import { redirectParam, safeRedirect } from '../redirect-target.ts';

/** /ingresar (spec §2 Login). */
export function Component() {
  useDocumentTitle(`Ingreso | ${shop.tradeName}`);
  const [params] = useSearchParams();
  const target = safeRedirect(params.get('redirect'));
  const { pending, signedIn } = useRedirectSignedIn('/');
  const login = useLogin();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useLoginForm();

  if (pending || signedIn) return <Spinner />;

  const onSubmit = handleSubmit((values) =>
    login.mutate(values, {
      // The spec reloads the page after signing in: every part of the shop starts from the new session.
      onSuccess: () => window.location.assign(target),
      onError: (error) => showServerError(error, 'Error de conexión'),
    }),
  );

  return (
    <AuthCard
      title="Ingrese a su cuenta"
      subtitle={
        <>
          o{' '}
          <Link to={`/registro?redirect=${redirectParam(target)}`} className={linkClass}>
            cree una cuenta nueva
          </Link>
        </>
      }
    >
      <form onSubmit={onSubmit} noValidate className="grid gap-5" aria-label="Ingreso">
        <TextField
          label="Correo electrónico"
          type="email"
          autoComplete="username"
          inputMode="email"
          autoFocus
          error={errors.username?.message}
          {...register('username')}
        />
        <PasswordField
          label="Contraseña"
          autoComplete="current-password"
          error={errors.password?.message}
          {...register('password')}
        />
        <div className="-mt-2 text-right text-sm">
          <Link to="/recuperar" className={linkClass}>
            ¿Olvidó su contraseña?
          </Link>
        </div>
        <SubmitButton loading={login.isPending} className="w-full">
          Ingresar
        </SubmitButton>
        <Link to="/" className="text-center text-sm font-medium text-slate-600 hover:text-brand-700">
          Volver
        </Link>
      </form>
    </AuthCard>
  );
}

import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { useRedirectSignedIn } from '@/client/lib/auth/require-signed-in.tsx';
import { PasswordChecklist, PasswordField, SubmitButton, TextField } from '@/client/ui/form-field.tsx';
import { useDocumentTitle } from '@/client/ui/page-heading.tsx';
import { showServerError } from '@/client/ui/server-errors.ts';
import { Spinner } from '@/client/ui/spinner.tsx';
import { passwordChecklist, type RegisterFormInput, registerFormSchema } from '@/shared/schemas/auth.ts';
import { shop } from '@/shared/shop.ts';
import { useRegister } from '../api/register.ts';
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

/** /registro (spec §2 Registration): signs the shopper in and goes to the redirect target. */
export function Component() {
  useDocumentTitle(`Registro | ${shop.tradeName}`);
  const [params] = useSearchParams();
  const target = safeRedirect(params.get('redirect'));
  const { pending, signedIn } = useRedirectSignedIn(target);
  const navigate = useNavigate();
  const signUp = useRegister();
  const {
    register,
    handleSubmit,
    watch,
    setError,
    formState: { errors },
  } = useForm<RegisterFormInput>({ resolver: zodResolver(registerFormSchema), defaultValues: EMPTY });
  const password = watch('password') ?? '';

  if (pending || signedIn) return <Spinner />;

  const onSubmit = handleSubmit(({ confirmPassword: _c, ...values }) =>
    signUp.mutate(values, {
      onSuccess: (data) => {
        if (data.user) {
          window.location.assign(target);
        } else {
          toast.info(data.message);
          navigate(`/ingresar?redirect=${redirectParam(target)}`);
        }
      },
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

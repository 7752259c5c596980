import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { inputClass, PasswordChecklist, PasswordField } from '@/client/ui/form-field.tsx';
import { showServerError } from '@/client/ui/server-errors.ts';
import { type PasswordFormInput, passwordFormSchema } from '@/shared/schemas/account.ts';
import { passwordChecklist } from '@/shared/schemas/auth.ts';
import { useChangePassword } from '../api/change-password.ts';
import { FormActions } from './profile-form.tsx';

/** /cuenta/password: the current password twice, the new one twice, under the same rule. */
export function PasswordForm({ email }: { email: string }) {
  const change = useChangePassword();
  const empty: PasswordFormInput = {
    username: email,
    password: '',
    confirmPassword: '',
    newPass: '',
    confirmNewPass: '',
  };
  const {
    register,
    handleSubmit,
    reset,
    watch,
    setError,
    formState: { errors },
  } = useForm<PasswordFormInput>({ resolver: zodResolver(passwordFormSchema), defaultValues: empty });
  const newPass = watch('newPass') ?? '';

  const onSubmit = handleSubmit(({ password, newPass: next }) =>
    change.mutate(
      { password, newPass: next },
      {
        onSuccess: () => {
          toast.success('Contraseña correctamente actualizada');
          reset(empty);
        },
        onError: (error) =>
          showServerError(error, 'No se pudo actualizar la contraseña', (field, message) =>
            setError(field as keyof PasswordFormInput, { message }),
          ),
      },
    ),
  );

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-5 sm:grid-cols-2" aria-label="Contraseña">
      <div className="sm:col-span-2">
        <label htmlFor="password-correo" className="mb-1.5 block text-sm font-medium text-slate-700">
          Correo electrónico
        </label>
        <input
          id="password-correo"
          className={inputClass(false)}
          autoComplete="username"
          value={email}
          disabled
          readOnly
        />
      </div>
      <PasswordField
        label="Contraseña actual"
        autoComplete="current-password"
        error={errors.password?.message}
        {...register('password')}
      />
      <PasswordField
        label="Confirmar contraseña actual"
        autoComplete="current-password"
        error={errors.confirmPassword?.message}
        {...register('confirmPassword')}
      />
      <PasswordField
        label="Nueva contraseña"
        autoComplete="new-password"
        error={errors.newPass?.message}
        {...register('newPass')}
      />
      <PasswordField
        label="Confirmar nueva contraseña"
        autoComplete="new-password"
        error={errors.confirmNewPass?.message}
        {...register('confirmNewPass')}
      />
      <div className="rounded-lg bg-slate-50 px-4 py-3 sm:col-span-2">
        <PasswordChecklist value={newPass} items={passwordChecklist} />
      </div>
      <FormActions loading={change.isPending} />
    </form>
  );
}

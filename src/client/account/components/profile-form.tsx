import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { inputClass, PasswordField, SubmitButton, TextField } from '@/client/ui/form-field.tsx';
import { showServerError } from '@/client/ui/server-errors.ts';
import { Spinner } from '@/client/ui/spinner.tsx';
import { type ProfileFormInput, profileFormSchema } from '@/shared/schemas/account.ts';
import { useProfile } from '../api/get-profile.ts';
import { useUpdateProfile } from '../api/update-profile.ts';

const EMPTY: ProfileFormInput = {
  nombre: '',
  apellidoPat: '',
  apellidoMat: '',
  telefono: '',
  password: '',
  confirmPassword: '',
};

/** /cuenta and /cuenta/perfil: names and phone; the current password confirms the change. */
export function ProfileForm() {
  const profile = useProfile();
  const update = useUpdateProfile();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<ProfileFormInput>({ resolver: zodResolver(profileFormSchema), defaultValues: EMPTY });

  useEffect(() => {
    if (profile.data) {
      const { nombre, apellidoPat, apellidoMat, telefono } = profile.data;
      reset({ ...EMPTY, nombre, apellidoPat, apellidoMat, telefono });
    }
  }, [profile.data, reset]);

  if (profile.isPending) return <Spinner />;

  const onSubmit = handleSubmit(({ confirmPassword: _c, ...values }) =>
    update.mutate(values, {
      onSuccess: (data) => {
        toast.success(data.message);
        reset({
          ...EMPTY,
          nombre: data.nombre,
          apellidoPat: data.apellidoPat,
          apellidoMat: data.apellidoMat,
          telefono: data.telefono,
        });
      },
      onError: (error) =>
        showServerError(error, 'No se pudo actualizar la información', (field, message) =>
          setError(field as keyof ProfileFormInput, { message }),
        ),
    }),
  );

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-5 sm:grid-cols-2" aria-label="Perfil">
      <div className="sm:col-span-2">
        <label htmlFor="perfil-correo" className="mb-1.5 block text-sm font-medium text-slate-700">
          Correo electrónico
        </label>
        <input
          id="perfil-correo"
          className={inputClass(false)}
          value={profile.data?.email ?? ''}
          disabled
          readOnly
        />
      </div>
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
        className="sm:col-span-2"
        error={errors.telefono?.message}
        {...register('telefono')}
      />
      <p className="text-sm text-slate-600 sm:col-span-2">
        Para guardar los cambios escriba su contraseña actual.
      </p>
      <PasswordField
        label="Contraseña"
        autoComplete="current-password"
        error={errors.password?.message}
        {...register('password')}
      />
      <PasswordField
        label="Confirmar contraseña"
        autoComplete="current-password"
        error={errors.confirmPassword?.message}
        {...register('confirmPassword')}
      />
      <FormActions loading={update.isPending} />
    </form>
  );
}

export function FormActions({ loading }: { loading: boolean }) {
  return (
    <div className="flex flex-col-reverse gap-3 sm:col-span-2 sm:flex-row sm:items-center sm:justify-end">
      <Link
        to="/"
        className="rounded-lg px-5 py-2.5 text-center text-[15px] font-medium text-slate-700 hover:bg-slate-100"
      >
        Volver
      </Link>
      <SubmitButton loading={loading}>Guardar</SubmitButton>
    </div>
  );
}

import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Alert } from '@/client/ui/alert.tsx';
import { PasswordField, SubmitButton, TextField } from '@/client/ui/form-field.tsx';
import { useDocumentTitle } from '@/client/ui/page-heading.tsx';
import { Spinner } from '@/client/ui/spinner.tsx';
import type { StaffAcceptInput } from '@/shared/schemas/staff.ts';
import { shop } from '@/shared/shop.ts';
import { STAFF_ROLE_LABELS } from '@/shared/staff-roles.ts';
import { useAcceptStaffInvitation, useStaffInvitation } from '../api/staff.ts';
import { serverFields } from '../components/admin-ui.tsx';

/** /admin/invitacion/:token: the invitee sets name and password; then the back office asks for the second factor. */
export function StaffInvitationScreen() {
  useDocumentTitle(`Invitación al personal — ${shop.tradeName}`);
  const { token = '' } = useParams();
  const preview = useStaffInvitation(token);
  const accept = useAcceptStaffInvitation(token);
  const client = useQueryClient();
  const navigate = useNavigate();
  const [form, setForm] = useState<StaffAcceptInput>({
    nombre: '',
    apellidoPat: '',
    telefono: '',
    password: '',
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = (key: keyof StaffAcceptInput) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [key]: e.target.value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    accept.mutate(form, {
      onSuccess: async () => {
        await client.invalidateQueries();
        navigate('/admin', { replace: true });
      },
      onError: (error) => setErrors(serverFields(error)),
    });
  };
  return (
    <div className="flex min-h-screen items-center justify-center bg-slate-100 px-4 py-10">
      <div className="w-full max-w-md rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">{shop.tradeName}</p>
        <h1 className="mt-1 text-2xl font-semibold text-slate-900">Invitación al personal</h1>
        {preview.isPending ? <Spinner /> : null}
        {preview.error ? (
          <div className="mt-4">
            <Alert tone="danger">{preview.error.message}</Alert>
          </div>
        ) : null}
        {preview.data ? (
          <>
            <p className="mt-2 text-sm text-slate-600">
              Cree su acceso como <strong>{STAFF_ROLE_LABELS[preview.data.role]}</strong> con el correo{' '}
              <strong>{preview.data.email}</strong>.
            </p>
            <form className="mt-6 grid gap-4" onSubmit={submit} noValidate aria-label="Crear mi acceso">
              <TextField
                label="Nombre"
                autoComplete="given-name"
                value={form.nombre}
                onChange={set('nombre')}
                error={errors.nombre}
              />
              <TextField
                label="Apellido"
                autoComplete="family-name"
                value={form.apellidoPat}
                onChange={set('apellidoPat')}
                error={errors.apellidoPat}
              />
              <TextField
                label="Teléfono"
                type="tel"
                inputMode="numeric"
                autoComplete="tel-national"
                value={form.telefono}
                onChange={set('telefono')}
                error={errors.telefono}
              />
              <PasswordField
                label="Contraseña"
                autoComplete="new-password"
                value={form.password}
                onChange={set('password')}
                error={errors.password}
              />
              {accept.error && Object.keys(errors).length === 0 ? (
                <Alert tone="danger">{accept.error.message}</Alert>
              ) : null}
              <SubmitButton loading={accept.isPending} className="w-full">
                Crear mi acceso
              </SubmitButton>
            </form>
          </>
        ) : null}
        <Link to="/admin" className="mt-6 block text-center text-sm text-brand-700 hover:underline">
          Ir a la administración
        </Link>
      </div>
    </div>
  );
}

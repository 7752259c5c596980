import { useState } from 'react';
import { toast } from 'sonner';
import { SelectField, SubmitButton, TextField } from '@/client/ui/form-field.tsx';
import { showServerError } from '@/client/ui/server-errors.ts';
import { INSTITUTION_ROLE_HELP, INSTITUTION_ROLE_LABELS, INSTITUTION_ROLES } from '@/shared/institutions.ts';
import type { InvitationCreateInput } from '@/shared/schemas/institutions.ts';
import { useInvite } from '../api/institutions.ts';

const EMPTY: InvitationCreateInput = {
  email: '',
  role: 'solicitante',
  orderLimit: '',
  monthlyLimit: '',
  approvalLimit: '',
};
const roleOptions = INSTITUTION_ROLES.map((r) => ({ value: r, label: INSTITUTION_ROLE_LABELS[r] }));

/** «Invitar a un miembro»: an e-mail, a role and its limits; the person gets a single-use link valid 7 days. */
export function InviteForm({ institutionId }: { institutionId: number }) {
  const invite = useInvite(institutionId);
  const [form, setForm] = useState<InvitationCreateInput>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = (key: keyof InvitationCreateInput) => (event: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [key]: event.target.value }));
  const role = (form.role ?? 'solicitante') as (typeof INSTITUTION_ROLES)[number];
  return (
    <form
      noValidate
      aria-label="Invitar a un miembro"
      className="grid gap-4 sm:grid-cols-2"
      onSubmit={(event) => {
        event.preventDefault();
        setErrors({});
        invite.mutate(form, {
          onSuccess: (answer) => {
            toast.success(answer.message);
            setForm(EMPTY);
          },
          onError: (error) =>
            showServerError(error, 'No se pudo enviar la invitación', (field, message) =>
              setErrors((e) => ({ ...e, [field]: message })),
            ),
        });
      }}
    >
      <TextField
        label="Correo electrónico"
        type="email"
        autoComplete="off"
        value={form.email}
        onChange={set('email')}
        error={errors.email}
      />
      <SelectField
        label="Papel"
        placeholder="Elija un papel"
        options={roleOptions}
        value={role}
        onChange={set('role')}
        error={errors.role}
      />
      <p className="-mt-2 text-xs text-slate-500 sm:col-span-2">{INSTITUTION_ROLE_HELP[role]}</p>
      <TextField
        label="Límite por pedido (pesos)"
        inputMode="decimal"
        placeholder="Sin límite"
        value={form.orderLimit ?? ''}
        onChange={set('orderLimit')}
        error={errors.orderLimit}
      />
      <TextField
        label="Límite mensual (pesos)"
        inputMode="decimal"
        placeholder="Sin límite"
        value={form.monthlyLimit ?? ''}
        onChange={set('monthlyLimit')}
        error={errors.monthlyLimit}
      />
      {role === 'aprobador' || role === 'administrador' ? (
        <TextField
          label="Aprueba requisiciones hasta (pesos)"
          inputMode="decimal"
          placeholder="Sin límite"
          value={form.approvalLimit ?? ''}
          onChange={set('approvalLimit')}
          error={errors.approvalLimit}
        />
      ) : null}
      <div className="sm:col-span-2">
        <SubmitButton loading={invite.isPending} loadingLabel="Enviando">
          Enviar invitación
        </SubmitButton>
        <p className="mt-2 text-xs text-slate-500">
          Le llegará un enlace de un solo uso, válido 7 días. Debe aceptarlo con una cuenta de ese mismo
          correo.
        </p>
      </div>
    </form>
  );
}

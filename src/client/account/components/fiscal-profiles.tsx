import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { type FieldPath, useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { SelectField, SubmitButton, TextField } from '@/client/ui/form-field.tsx';
import { showServerError } from '@/client/ui/server-errors.ts';
import { Spinner } from '@/client/ui/spinner.tsx';
import { findRegimen, findUsoCfdi, REGIMENES_FISCALES, USOS_FOR_SALE } from '@/shared/sat-catalogs.ts';
import {
  type FiscalProfile,
  type FiscalProfileInput,
  fiscalProfileSchema,
} from '@/shared/schemas/invoice.ts';
import { useDeleteFiscalProfile, useFiscalProfiles, useSaveFiscalProfile } from '../api/fiscal-profiles.ts';

const EMPTY: FiscalProfileInput = {
  rfc: '',
  nombreFiscal: '',
  regimenFiscal: '',
  usoCfdi: '',
  cp: '',
  email: '',
};
const regimenOptions = REGIMENES_FISCALES.map((r) => ({
  value: r.code,
  label: `${r.code} - ${r.description}`,
}));
const usoOptions = USOS_FOR_SALE.map((u) => ({ value: u.code, label: `${u.code} - ${u.description}` }));

/** One fiscal profile's form: the invoice form's fields and SAT rules (the shared schema), plus the e-mail. */
function ProfileForm({ profile, onDone }: { profile: FiscalProfile | null; onDone: () => void }) {
  const save = useSaveFiscalProfile();
  const {
    register,
    handleSubmit,
    setError,
    watch,
    formState: { errors },
  } = useForm<FiscalProfileInput>({
    resolver: zodResolver(fiscalProfileSchema),
    defaultValues: profile ? { ...profile } : EMPTY,
  });
  const e = (name: keyof FiscalProfileInput) => errors[name]?.message;
  const submit = handleSubmit((data) =>
    save.mutate(
      { ...(profile ? { id: profile.id } : {}), data },
      {
        onSuccess: () => {
          toast.success('Datos fiscales guardados');
          onDone();
        },
        onError: (error) =>
          showServerError(error, 'No se pudieron guardar sus datos fiscales', (field, message) =>
            setError(field as FieldPath<FiscalProfileInput>, { message }),
          ),
      },
    ),
  );
  const doubt = (e('rfc') ?? '').startsWith('El dígito verificador del RFC') || watch('rfcConfirmado');
  return (
    <form onSubmit={submit} noValidate className="grid gap-4 sm:grid-cols-2" aria-label="Datos fiscales">
      <TextField
        label="RFC"
        maxLength={13}
        autoCapitalize="characters"
        className="[&_input]:uppercase"
        error={e('rfc')}
        {...register('rfc')}
      />
      <TextField label="Código postal fiscal" digitsOnly maxLength={5} error={e('cp')} {...register('cp')} />
      {doubt ? (
        <label className="flex items-start gap-2 text-sm text-slate-700 sm:col-span-2">
          <input type="checkbox" className="mt-0.5 size-4 accent-brand-700" {...register('rfcConfirmado')} />
          Confirmo que mi RFC es correcto tal como aparece en mi Constancia de Situación Fiscal
        </label>
      ) : null}
      <TextField
        label="Razón social"
        className="sm:col-span-2"
        hint="Tal como aparece en su Constancia de Situación Fiscal, sin el régimen societario"
        error={e('nombreFiscal')}
        {...register('nombreFiscal')}
      />
      <SelectField
        label="Régimen fiscal"
        placeholder="Seleccione su régimen fiscal"
        options={regimenOptions}
        className="sm:col-span-2"
        error={e('regimenFiscal')}
        {...register('regimenFiscal')}
      />
      <SelectField
        label="Uso del CFDI por omisión"
        placeholder="Seleccione el uso del CFDI"
        options={usoOptions}
        error={e('usoCfdi')}
        {...register('usoCfdi')}
      />
      <TextField
        label="Correo para facturas (opcional)"
        type="email"
        hint="Si lo deja vacío, usamos el de su cuenta"
        error={e('email')}
        {...register('email')}
      />
      <label className="flex items-center gap-2 text-sm text-slate-700 sm:col-span-2">
        <input type="checkbox" className="size-4 accent-brand-700" {...register('isDefault')} />
        Usar estos datos por omisión
      </label>
      <div className="flex gap-2 sm:col-span-2">
        <SubmitButton loading={save.isPending} loadingLabel="Guardando...">
          Guardar datos fiscales
        </SubmitButton>
        <button
          type="button"
          onClick={onDone}
          className="rounded-lg px-4 py-2.5 text-sm font-medium text-slate-700 hover:bg-slate-50"
        >
          Cancelar
        </button>
      </div>
    </form>
  );
}

/** 'Datos fiscales' in /cuenta (issue 20): the buyer's saved fiscal profiles. */
export function FiscalProfiles() {
  const list = useFiscalProfiles();
  const remove = useDeleteFiscalProfile();
  const [editing, setEditing] = useState<FiscalProfile | 'new' | null>(null);
  if (list.isPending) return <Spinner />;
  const profiles = list.data?.profiles ?? [];
  if (editing)
    return <ProfileForm profile={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />;
  return (
    <div className="space-y-4">
      {profiles.length === 0 ? (
        <p className="text-sm text-slate-600">
          Aún no tiene datos fiscales guardados. Guárdelos una vez y elíjalos al facturar o al comprar.
        </p>
      ) : (
        <ul className="grid gap-3 sm:grid-cols-2">
          {profiles.map((p) => (
            <li
              key={p.id}
              className="rounded-lg border border-slate-200 p-4 text-sm"
              data-testid="fiscal-profile"
            >
              <p className="font-semibold text-slate-900">
                {p.nombreFiscal}
                {p.isDefault ? (
                  <span className="ml-2 rounded-full bg-brand-50 px-2 py-0.5 text-xs font-medium text-brand-800">
                    Por omisión
                  </span>
                ) : null}
              </p>
              <p className="text-slate-700">
                RFC {p.rfc} · C.P. {p.cp}
              </p>
              <p className="text-slate-600">
                {p.regimenFiscal} {findRegimen(p.regimenFiscal)?.description}
              </p>
              <p className="text-slate-600">
                Uso {p.usoCfdi} {findUsoCfdi(p.usoCfdi)?.description}
              </p>
              {p.email ? <p className="text-slate-600">Facturas a {p.email}</p> : null}
              <div className="mt-3 flex gap-3">
                <button type="button" className="font-medium text-brand-700" onClick={() => setEditing(p)}>
                  Modificar
                </button>
                <button
                  type="button"
                  className="font-medium text-red-700"
                  disabled={remove.isPending}
                  onClick={() =>
                    remove.mutate(p.id, {
                      onSuccess: (r) => toast.success(r.message),
                      onError: (error) => showServerError(error, 'No se pudieron eliminar'),
                    })
                  }
                >
                  Eliminar
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <button
        type="button"
        onClick={() => setEditing('new')}
        className="rounded-lg border border-brand-700 px-4 py-2 text-sm font-semibold text-brand-700 hover:bg-brand-50"
      >
        Agregar datos fiscales
      </button>
    </div>
  );
}

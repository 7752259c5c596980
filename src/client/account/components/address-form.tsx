import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { type FieldPath, useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { ApiError } from '@/client/lib/api-client.ts';
import { SelectField, SubmitButton, TextField } from '@/client/ui/form-field.tsx';
import { Spinner } from '@/client/ui/spinner.tsx';
import {
  type SavedAddress,
  type ShippingAddress,
  type ShippingAddressInput,
  shippingAddressSchema,
} from '@/shared/schemas/account.ts';
import { COUNTRY, MEXICAN_STATES } from '@/shared/states.ts';
import { useSaveAddress } from '../api/addresses.ts';
import { useShippingAddress } from '../api/get-shipping-address.ts';
import { useSaveShippingAddress } from '../api/save-shipping-address.ts';

const EMPTY: ShippingAddressInput = {
  nombreEnvio: '',
  telefonoEnvio: '',
  cpEnvio: '',
  calleEnvio: '',
  numExtEnvio: '',
  numIntEnvio: '',
  coloniaEnvio: '',
  municipioEnvio: '',
  ciudadEnvio: '',
  estadoEnvio: '',
  paisEnvio: COUNTRY,
  alias: 'Principal',
};

const stateOptions = MEXICAN_STATES.map((s) => ({ value: s.value, label: s.label }));

/**
 * The shipping address form of /envio and 'Mis direcciones' (spec §2, §5; issue 20): validated with the shared
 * schema, saved to the server; the country is fixed to México. Without `address` it edits the default address
 * (the first one for a new account); with one ('Mis direcciones'), that saved address, or a new one when null.
 */
export function AddressForm({
  submitLabel,
  onSaved,
  backTo,
  address,
  onCancel,
  saveTo,
}: {
  submitLabel: string;
  onSaved?: () => void;
  /** Shows a 'Volver' link to this path beside the button. */
  backTo?: string;
  /** 'Mis direcciones': the address to edit, or null for a new one. */
  address?: SavedAddress | null;
  /** 'Mis direcciones': shows 'Cancelar'. */
  onCancel?: () => void;
  /** An institution's shared address (issue 34): saved through this instead of the buyer's own addresses. */
  saveTo?: {
    mutate: (
      data: ShippingAddress,
      handlers: { onSuccess: () => void; onError: (error: Error) => void },
    ) => void;
    isPending: boolean;
  };
}) {
  const listMode = address !== undefined;
  const saved = useShippingAddress(!listMode);
  const saveDefault = useSaveShippingAddress();
  const saveOne = useSaveAddress();
  const save = saveTo ?? (listMode ? saveOne : saveDefault);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<ShippingAddressInput, unknown, ShippingAddress>({
    resolver: zodResolver(shippingAddressSchema),
    defaultValues: address
      ? ({ ...EMPTY, ...address } as ShippingAddressInput)
      : address === null
        ? { ...EMPTY, alias: '' }
        : EMPTY,
  });

  useEffect(() => {
    if (!listMode && saved.data) reset({ ...EMPTY, ...saved.data } as ShippingAddressInput);
  }, [listMode, saved.data, reset]);

  if (!listMode && saved.isPending) return <Spinner />;

  const onError = (error: Error) => {
    if (error instanceof ApiError && error.status !== 0) {
      for (const [field, message] of Object.entries(error.fields ?? {})) {
        if (field in EMPTY) setError(field as FieldPath<ShippingAddressInput>, { message });
      }
      toast.error(error.message);
    } else {
      toast.error('No se pudo guardar su dirección de envío');
    }
  };
  const onSubmit = handleSubmit((data) => {
    const done = () => {
      toast.success('Información de domicilio correctamente actualizada');
      onSaved?.();
    };
    if (saveTo) saveTo.mutate(data, { onSuccess: done, onError });
    else if (listMode)
      saveOne.mutate({ ...(address ? { id: address.id } : {}), data }, { onSuccess: done, onError });
    else saveDefault.mutate(data, { onSuccess: done, onError });
  });

  const e = (name: keyof ShippingAddressInput) => errors[name]?.message;

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      className="grid gap-5 sm:grid-cols-2"
      aria-label="Domicilio de envío"
    >
      <TextField
        label="Nombre de la dirección"
        hint="Un nombre corto para reconocerla: Laboratorio de química, Almacén, Campus Norte"
        maxLength={40}
        className="sm:col-span-2"
        error={e('alias')}
        {...register('alias')}
      />
      <TextField
        label="Nombre completo"
        autoComplete="shipping name"
        className="sm:col-span-2"
        error={e('nombreEnvio')}
        {...register('nombreEnvio')}
      />
      <TextField
        label="Calle"
        autoComplete="shipping address-line1"
        className="sm:col-span-2"
        error={e('calleEnvio')}
        {...register('calleEnvio')}
      />
      <TextField
        label="Número exterior"
        digitsOnly
        maxLength={10}
        error={e('numExtEnvio')}
        {...register('numExtEnvio')}
      />
      <TextField
        label="Número interior (opcional)"
        maxLength={10}
        error={e('numIntEnvio')}
        {...register('numIntEnvio')}
      />
      <TextField
        label="Colonia"
        autoComplete="shipping address-level3"
        error={e('coloniaEnvio')}
        {...register('coloniaEnvio')}
      />
      <TextField label="Municipio" error={e('municipioEnvio')} {...register('municipioEnvio')} />
      <TextField
        label="Ciudad"
        autoComplete="shipping address-level2"
        error={e('ciudadEnvio')}
        {...register('ciudadEnvio')}
      />
      <TextField
        label="Código postal"
        autoComplete="shipping postal-code"
        digitsOnly
        maxLength={8}
        error={e('cpEnvio')}
        {...register('cpEnvio')}
      />
      <TextField
        label="Teléfono"
        type="tel"
        autoComplete="shipping tel-national"
        digitsOnly
        maxLength={10}
        hint="10 dígitos"
        error={e('telefonoEnvio')}
        {...register('telefonoEnvio')}
      />
      <SelectField
        label="Estado"
        placeholder="Seleccione un estado"
        options={stateOptions}
        autoComplete="shipping address-level1"
        error={e('estadoEnvio')}
        {...register('estadoEnvio')}
      />
      <input type="hidden" readOnly {...register('paisEnvio')} />
      <p className="text-sm text-slate-500 sm:col-span-2">País: {COUNTRY}</p>
      {listMode && !saveTo && !address?.isDefault ? (
        <label className="flex items-center gap-2 text-sm text-slate-700 sm:col-span-2">
          <input type="checkbox" className="size-4 accent-brand-700" {...register('isDefault')} />
          Usar como dirección por omisión
        </label>
      ) : null}
      <div className="flex flex-col-reverse gap-3 sm:col-span-2 sm:flex-row sm:items-center sm:justify-end">
        {backTo ? (
          <Link
            to={backTo}
            className="rounded-lg px-5 py-2.5 text-center text-[15px] font-medium text-slate-700 hover:bg-slate-100"
          >
            Volver
          </Link>
        ) : null}
        {onCancel ? (
          <button
            type="button"
            onClick={onCancel}
            className="rounded-lg px-5 py-2.5 text-center text-[15px] font-medium text-slate-700 hover:bg-slate-100"
          >
            Cancelar
          </button>
        ) : null}
        <SubmitButton loading={save.isPending} loadingLabel="Cargando...">
          {submitLabel}
        </SubmitButton>
      </div>
    </form>
  );
}

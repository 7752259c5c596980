import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef, useState } from 'react';
import { type FieldPath, useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { Alert } from '@/client/ui/alert.tsx';
import { SelectField, SubmitButton, TextField } from '@/client/ui/form-field.tsx';
import { showServerError } from '@/client/ui/server-errors.ts';
import { GENERIC_RFCS, isGenericRfc, REGIMENES_FISCALES, USOS_FOR_SALE } from '@/shared/sat-catalogs.ts';
import {
  type InvoiceRequest,
  type InvoiceRequestInput,
  type InvoiceState,
  invoiceRequestSchema,
} from '@/shared/schemas/invoice.ts';
import { useSavedFiscalProfiles } from '../api/fiscal-profiles.ts';
import { useReplaceInvoice } from '../api/replace-invoice.ts';
import { useRequestInvoice } from '../api/request-invoice.ts';

const EMPTY: InvoiceRequestInput = {
  nombreFiscal: '',
  rfc: '',
  regimenFiscal: '',
  usoCfdi: '',
  cp: '',
};

const regimenOptions = REGIMENES_FISCALES.map((r) => ({
  value: r.code,
  label: `${r.code} - ${r.description}`,
}));
const usoOptions = USOS_FOR_SALE.map((u) => ({ value: u.code, label: `${u.code} - ${u.description}` }));

type Correction = {
  /** The data of the invoice being corrected, to start from. */
  initial: Pick<InvoiceRequestInput, 'rfc' | 'nombreFiscal'>;
  onCancel: () => void;
};

/**
 * The invoice request (spec §5 "Invoice form"), checked with the same schema as the API: SAT's RFC
 * shape, régimen by persona type and uso CFDI by régimen. A generic RFC disables the form. With `correction`
 * it is «Corregir factura»: the corrected data replace the active invoice (POST …/invoice/replace).
 */
export function InvoiceForm({
  orderNumber,
  correction,
  institution = null,
}: {
  orderNumber: number;
  correction?: Correction;
  /** An order placed for an institution (decision 058): its fiscal data come first, before the buyer's own. */
  institution?: InvoiceState['institutionReceptor'];
}) {
  const request = useRequestInvoice();
  const replace = useReplaceInvoice();
  const issue = correction ? replace : request;
  const {
    register,
    handleSubmit,
    setError,
    watch,
    reset,
    formState: { errors },
  } = useForm<InvoiceRequestInput, unknown, InvoiceRequest>({
    resolver: zodResolver(invoiceRequestSchema),
    defaultValues: correction ? { ...EMPTY, ...correction.initial } : EMPTY,
  });

  const saved = useSavedFiscalProfiles();
  const profiles = saved.data?.profiles ?? [];
  const [chosen, setChosen] = useState('');
  const fillFrom = (p: Omit<(typeof profiles)[number], 'id' | 'email' | 'isDefault'>) =>
    reset({
      rfc: p.rfc,
      nombreFiscal: p.nombreFiscal,
      regimenFiscal: p.regimenFiscal,
      usoCfdi: p.usoCfdi,
      cp: p.cp,
      rfcConfirmado: p.rfcConfirmado,
    });
  const INSTITUTION = 'institucion';
  // A new request starts from the buyer's default fiscal profile, once (issue 37, item 4); a correction starts
  // from the invoice it corrects.
  const prefilled = useRef(false);
  const defaultProfile = saved.data?.profiles.find((p) => p.isDefault);
  // biome-ignore lint/correctness/useExhaustiveDependencies: fillFrom only resets the form; once per default found.
  useEffect(() => {
    if (correction || prefilled.current) return;
    // An institution's order is invoiced to the institution unless the buyer picks otherwise (decision 058).
    if (institution) {
      prefilled.current = true;
      setChosen(INSTITUTION);
      fillFrom({ ...institution, rfcConfirmado: true });
      return;
    }
    if (!defaultProfile) return;
    prefilled.current = true;
    setChosen(String(defaultProfile.id));
    fillFrom(defaultProfile);
  }, [correction, defaultProfile, institution]);
  const generic = isGenericRfc((watch('rfc') ?? '').trim());
  const busy = issue.isPending;
  const disabled = generic || busy;

  const onSubmit = handleSubmit((data) =>
    issue.mutate(
      { number: orderNumber, data },
      {
        onSuccess: (answer) => toast.success(answer.message),
        onError: (error) =>
          showServerError(
            error,
            correction ? 'No se pudo corregir su factura' : 'No se pudo generar su factura',
            (field, message) => {
              if (field in EMPTY) setError(field as FieldPath<InvoiceRequestInput>, { message });
            },
          ),
      },
    ),
  );

  const e = (name: keyof InvoiceRequestInput) => errors[name]?.message;
  const rfc = register('rfc');
  // A check digit that does not match may still be a real RFC (SAT issued a few): the shopper confirms it.
  const checkDigitDoubt =
    (e('rfc') ?? '').startsWith('El dígito verificador del RFC') || watch('rfcConfirmado');

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      className="grid gap-5 sm:grid-cols-2"
      aria-label={correction ? 'Corrección de datos fiscales' : 'Datos de facturación'}
    >
      {profiles.length > 0 || institution ? (
        <SelectField
          label="Usar mis datos fiscales guardados"
          placeholder="Escribirlos a mano"
          className="sm:col-span-2"
          options={[
            ...(institution
              ? [
                  {
                    value: INSTITUTION,
                    label: `Institución: ${institution.rfc} · ${institution.nombreFiscal}`,
                  },
                ]
              : []),
            ...profiles.map((p) => ({ value: String(p.id), label: `${p.rfc} · ${p.nombreFiscal}` })),
          ]}
          value={chosen}
          onChange={(event) => {
            setChosen(event.target.value);
            if (institution && event.target.value === INSTITUTION)
              return fillFrom({ ...institution, rfcConfirmado: true });
            const p = profiles.find((x) => String(x.id) === event.target.value);
            if (p) fillFrom(p);
          }}
        />
      ) : null}
      <TextField
        label="RFC"
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        maxLength={13}
        className="[&_input]:uppercase"
        hint="12 caracteres (persona moral) o 13 (persona física), con homoclave"
        error={e('rfc')}
        disabled={busy}
        {...rfc}
        onChange={(event) => {
          const upper = event.target.value.toUpperCase();
          if (upper !== event.target.value) event.target.value = upper;
          return rfc.onChange(event);
        }}
      />
      {checkDigitDoubt ? (
        <label className="flex items-start gap-2 text-sm text-slate-700 sm:col-span-2">
          <input type="checkbox" className="mt-0.5 size-4 accent-brand-700" {...register('rfcConfirmado')} />
          Confirmo que mi RFC es correcto tal como aparece en mi Constancia de Situación Fiscal
        </label>
      ) : null}
      <TextField
        label="Código postal del domicilio fiscal"
        autoComplete="postal-code"
        digitsOnly
        maxLength={5}
        hint="El de su Constancia de Situación Fiscal"
        error={e('cp')}
        disabled={disabled}
        {...register('cp')}
      />
      {generic ? (
        <div className="sm:col-span-2">
          <Alert tone="warning">
            No es posible facturar a un RFC genérico ({GENERIC_RFCS.join(' o ')}). Escriba el RFC de su
            Constancia de Situación Fiscal para solicitar la factura.
          </Alert>
        </div>
      ) : null}
      <TextField
        label="Nombre fiscal o razón social"
        autoComplete="organization"
        className="sm:col-span-2"
        hint="Tal como aparece en su Constancia de Situación Fiscal, sin el régimen societario (S.A. de C.V.)"
        error={e('nombreFiscal')}
        disabled={disabled}
        {...register('nombreFiscal')}
      />
      <SelectField
        label="Régimen fiscal"
        placeholder="Seleccione su régimen fiscal"
        options={regimenOptions}
        className="sm:col-span-2"
        error={e('regimenFiscal')}
        disabled={disabled}
        {...register('regimenFiscal')}
      />
      <SelectField
        label="Uso del CFDI"
        placeholder="Seleccione el uso del CFDI"
        options={usoOptions}
        error={e('usoCfdi')}
        disabled={disabled}
        {...register('usoCfdi')}
      />
      <p className="self-end text-sm text-slate-600">
        La forma de pago de la factura se toma del pago del pedido (tarjeta de crédito o de débito).
      </p>
      <div className="flex flex-col gap-3 sm:col-span-2 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-xs text-slate-500">
          {correction
            ? 'La factura corregida sustituye a la actual (relación 04) y la actual se cancela ante el SAT con motivo 01. Solo puede corregirla una vez.'
            : 'Recibirá el XML y el PDF por correo; también podrá descargarlos aquí.'}
        </p>
        <div className="flex flex-col-reverse gap-2 sm:flex-row">
          {correction ? (
            <button
              type="button"
              onClick={correction.onCancel}
              disabled={busy}
              className="rounded-lg px-4 py-2.5 text-sm font-medium text-slate-700 hover:bg-slate-50"
            >
              Volver
            </button>
          ) : null}
          {generic ? (
            <button
              type="button"
              disabled
              className="rounded-lg bg-slate-300 px-5 py-2.5 text-[15px] font-semibold text-white"
            >
              {correction ? 'Emitir factura corregida' : 'Solicitar factura'}
            </button>
          ) : (
            <SubmitButton
              loading={busy}
              loadingLabel={correction ? 'Corrigiendo factura...' : 'Generando factura...'}
            >
              {correction ? 'Emitir factura corregida' : 'Solicitar factura'}
            </SubmitButton>
          )}
        </div>
      </div>
    </form>
  );
}

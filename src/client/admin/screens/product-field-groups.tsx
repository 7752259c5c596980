import { GRADES, PICTOGRAMS, pictogramAlt, pictogramUrl, SIGNAL_WORDS } from '@/shared/ghs.ts';
import { fieldClass } from '../components/admin-ui.tsx';
import { Field, type FieldGroupProps } from './product-form.tsx';

/** 'Reactivo y seguridad (SGA)' (decision 027): CAS, formula, molar mass, grade, pictograms, signal word, H/P. */
export function SafetyFields({ register, err }: FieldGroupProps) {
  return (
    <fieldset className="grid gap-4 rounded-md border border-slate-200 p-4 sm:col-span-2 sm:grid-cols-2">
      <legend className="px-1 text-sm font-semibold text-slate-800">Reactivo y seguridad (SGA)</legend>
      <p className="text-xs text-slate-600 sm:col-span-2">
        Los datos de seguridad se capturan en el producto base; sus presentaciones los muestran.
      </p>
      <Field label="Número CAS" error={err('casNumber')} hint="p. ej. 7647-01-0; se verifica el dígito">
        <input className={fieldClass} {...register('casNumber')} aria-invalid={Boolean(err('casNumber'))} />
      </Field>
      <Field label="Fórmula" error={err('formula')} hint="p. ej. H2SO4">
        <input className={fieldClass} {...register('formula')} />
      </Field>
      <Field label="Masa molar (g/mol)" error={err('molarMass')}>
        <input
          className={fieldClass}
          inputMode="decimal"
          {...register('molarMass')}
          aria-invalid={Boolean(err('molarMass'))}
        />
      </Field>
      <Field label="Grado" error={err('grade')}>
        <select className={fieldClass} {...register('grade')}>
          <option value="">Sin grado</option>
          {GRADES.map((g) => (
            <option key={g.code} value={g.code}>
              {g.name}
            </option>
          ))}
        </select>
      </Field>
      <fieldset className="sm:col-span-2">
        <legend className="text-sm font-medium text-slate-700">Pictogramas</legend>
        <div className="mt-2 grid grid-cols-3 gap-2 sm:grid-cols-5 lg:grid-cols-9">
          {PICTOGRAMS.map((p) => (
            <label
              key={p.code}
              className="flex flex-col items-center gap-1 rounded border border-slate-200 p-2 text-center text-xs text-slate-700 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
            >
              <img src={pictogramUrl(p.code)} alt={pictogramAlt(p.code)} width={40} height={40} />
              <span>
                <input
                  type="checkbox"
                  value={p.code}
                  className="mr-1 size-3.5 align-middle accent-brand-700"
                  {...register('ghsPictograms')}
                />
                {p.code}
              </span>
            </label>
          ))}
        </div>
        {err('ghsPictograms') ? (
          <span className="mt-1 block text-xs text-red-600">{err('ghsPictograms')}</span>
        ) : null}
      </fieldset>
      <Field label="Palabra de advertencia" error={err('signalWord')}>
        <select className={fieldClass} {...register('signalWord')}>
          <option value="">Ninguna</option>
          <option value="danger">{SIGNAL_WORDS.danger}</option>
          <option value="warning">{SIGNAL_WORDS.warning}</option>
        </select>
      </Field>
      <Field
        label="Almacenamiento"
        error={err('storageConditions')}
        hint="p. ej. Entre 15 y 25 °C, en lugar seco"
      >
        <input className={fieldClass} {...register('storageConditions')} />
      </Field>
      <Field
        label="Indicaciones de peligro (códigos H)"
        error={err('hazardStatements')}
        hint="Códigos de la lista oficial separados por espacios: H290 H314 H335"
        className="sm:col-span-2"
      >
        <input
          className={`${fieldClass} font-mono`}
          {...register('hazardStatements')}
          aria-invalid={Boolean(err('hazardStatements'))}
        />
      </Field>
      <Field
        label="Consejos de prudencia (códigos P)"
        error={err('precautionaryStatements')}
        hint="Códigos de la lista oficial: P280 P305+P351+P338"
        className="sm:col-span-2"
      >
        <input
          className={`${fieldClass} font-mono`}
          {...register('precautionaryStatements')}
          aria-invalid={Boolean(err('precautionaryStatements'))}
        />
      </Field>
    </fieldset>
  );
}

/** 'Sobre pedido' (decision 029): orderable beyond stock, with the lead time in business days. */
export function SobrePedidoFields({ register, err }: FieldGroupProps) {
  return (
    <fieldset className="grid gap-3 rounded-md border border-slate-200 p-3 sm:col-span-2 sm:grid-cols-2">
      <legend className="px-1 text-sm font-medium text-slate-700">Sobre pedido</legend>
      <label className="flex items-center gap-2 text-sm font-medium text-slate-700 sm:col-span-2">
        <input
          type="checkbox"
          className="size-4 accent-brand-700"
          data-testid="backorderable"
          {...register('backorderable')}
        />
        Se puede pedir más allá de la existencia (lo que falte se entrega en el plazo)
      </label>
      <Field label="Entrega: días hábiles mínimos" error={err('leadMinDays')} hint="p. ej. 10">
        <input className={fieldClass} inputMode="numeric" {...register('leadMinDays')} />
      </Field>
      <Field label="Entrega: días hábiles máximos" error={err('leadMaxDays')} hint="p. ej. 15">
        <input className={fieldClass} inputMode="numeric" {...register('leadMaxDays')} />
      </Field>
    </fieldset>
  );
}

import type { ReactNode } from 'react';
import type { UseFormRegister } from 'react-hook-form';
import { formatAmount } from '@/shared/money.ts';
import type { AdminProduct } from '@/shared/schemas/admin.ts';

/** The product form's values, as typed (the shared schema parses them, here and on the server). */
export type Form = {
  code: string;
  name: string;
  brand: string;
  groupClas: string;
  line: string;
  type: string;
  price: string;
  weightKg: string;
  shortDesc: string;
  longDescHtml: string;
  satProductKey: string;
  satUnitKey: string;
  active: boolean;
  stock: string;
  familyCode: string;
  presentationLabel: string;
  priceBreaks: string;
  casNumber: string;
  formula: string;
  molarMass: string;
  grade: string;
  ghsPictograms: string[];
  signalWord: '' | 'danger' | 'warning';
  hazardStatements: string;
  precautionaryStatements: string;
  storageConditions: string;
  backorderable: boolean;
  leadMinDays: string;
  leadMaxDays: string;
  controlled: boolean;
};

export const EMPTY: Form = {
  code: '',
  name: '',
  brand: '',
  groupClas: '',
  line: '',
  type: '',
  price: '',
  weightKg: '',
  shortDesc: '',
  longDescHtml: '',
  satProductKey: '',
  satUnitKey: '',
  active: true,
  stock: '0',
  familyCode: '',
  presentationLabel: '',
  priceBreaks: '',
  casNumber: '',
  formula: '',
  molarMass: '',
  grade: '',
  ghsPictograms: [],
  signalWord: '',
  hazardStatements: '',
  precautionaryStatements: '',
  storageConditions: '',
  backorderable: false,
  leadMinDays: '',
  leadMaxDays: '',
  controlled: false,
};

export const toForm = (p: AdminProduct): Form => ({
  code: p.code,
  name: p.name,
  brand: p.brand ?? '',
  groupClas: p.groupClas ?? '',
  line: p.line ?? '',
  type: p.type ?? '',
  price: formatAmount(p.priceCents).replace(/,/g, ''),
  weightKg: String(p.weightKg),
  shortDesc: p.shortDesc,
  longDescHtml: p.longDescHtml,
  satProductKey: p.satProductKey ?? '',
  satUnitKey: p.satUnitKey ?? '',
  active: p.active,
  stock: String(p.stock),
  familyCode: p.familyCode ?? '',
  presentationLabel: p.presentationLabel ?? '',
  priceBreaks: p.priceBreaks,
  casNumber: p.casNumber ?? '',
  formula: p.formula ?? '',
  molarMass: p.molarMass === null ? '' : String(p.molarMass),
  grade: p.grade ?? '',
  ghsPictograms: p.ghsPictograms,
  signalWord: (p.signalWord ?? '') as Form['signalWord'],
  hazardStatements: p.hazardStatements.join(' '),
  precautionaryStatements: p.precautionaryStatements.join(' '),
  storageConditions: p.storageConditions ?? '',
  backorderable: p.backorderable,
  leadMinDays: p.leadMinDays === null ? '' : String(p.leadMinDays),
  leadMaxDays: p.leadMaxDays === null ? '' : String(p.leadMaxDays),
  controlled: p.controlled,
});

export function Field({
  label,
  error,
  hint,
  children,
  className = '',
}: {
  label: string;
  error?: string | undefined;
  hint?: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: the input, select or textarea comes in as children
    <label className={`block text-sm font-medium text-slate-700 ${className}`}>
      {label}
      <span className="mt-1 block">{children}</span>
      {error ? (
        <span className="mt-1 block text-xs text-red-600">{error}</span>
      ) : hint ? (
        <span className="mt-1 block text-xs font-normal text-slate-500">{hint}</span>
      ) : null}
    </label>
  );
}

/** What a group of fields needs of the form: its inputs, and the message of a field (the client's or the server's). */
export type FieldGroupProps = {
  register: UseFormRegister<Form>;
  err: (key: keyof Form) => string | undefined;
};

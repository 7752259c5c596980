import { useEffect, useState } from 'react';
import { TextField } from '@/client/ui/form-field.tsx';
import { PURCHASE_ORDER_MAX, purchaseOrderSchema } from '@/shared/schemas/orders.ts';

/**
 * 'Número de orden de compra' (issue 20): optional (unless the account requires it: the server says so),
 * checked with the server's own rule as the buyer types.
 */
export function PurchaseOrderField({
  initial,
  onChange,
}: {
  initial: string;
  onChange: (value: string, valid: boolean) => void;
}) {
  const [value, setValue] = useState(initial);
  const checked = purchaseOrderSchema.safeParse(value);
  const error = checked.success ? undefined : checked.error.issues[0]?.message;
  useEffect(() => {
    onChange(value, error === undefined);
  }, [value, error, onChange]);
  useEffect(() => {
    if (initial) setValue(initial);
  }, [initial]);
  return (
    <TextField
      label="Número de orden de compra (opcional)"
      className="mb-4"
      value={value}
      maxLength={PURCHASE_ORDER_MAX}
      hint="Aparecerá en su pedido, su recibo y su factura"
      error={error}
      onChange={(e) => setValue(e.target.value)}
    />
  );
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { AdminProduct, CreateProductInput, ProductFieldsInput } from '@/shared/schemas/admin.ts';

type ProductResponse = { message: string; product: AdminProduct };

/** POST /api/admin/products (new) or PUT /api/admin/products/:code (edit). */
export const saveProduct = (code: string | null, body: CreateProductInput | ProductFieldsInput) =>
  code
    ? apiFetch<ProductResponse>(`/api/admin/products/${encodeURIComponent(code)}`, { method: 'PUT', body })
    : apiFetch<ProductResponse>('/api/admin/products', { method: 'POST', body });

/** POST /api/admin/products/:code/active */
export const setProductActive = (code: string, active: boolean) =>
  apiFetch<ProductResponse>(`/api/admin/products/${encodeURIComponent(code)}/active`, {
    method: 'POST',
    body: { active },
  });

/** PUT /api/admin/products/:code/{image|datasheet}: the file's bytes in base64. */
export const uploadProductFile = (code: string, kind: 'image' | 'datasheet', contentBase64: string) =>
  apiFetch<ProductResponse>(`/api/admin/products/${encodeURIComponent(code)}/${kind}`, {
    method: 'PUT',
    body: { contentBase64 },
    timeoutMs: 60_000,
  });

export function useProductMutation<T>(fn: (input: T) => Promise<ProductResponse>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (data) => {
      client.setQueryData(['admin', 'product', data.product.code], data.product);
      void client.invalidateQueries({ queryKey: ['admin', 'products'] });
      void client.invalidateQueries({ queryKey: ['admin', 'movements', data.product.code] });
    },
  });
}

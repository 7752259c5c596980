import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { AdminProduct } from '@/shared/schemas/admin.ts';

export const getAdminProduct = (code: string) =>
  apiFetch<AdminProduct>(`/api/admin/products/${encodeURIComponent(code)}`);

export const adminProductQueryOptions = (code: string) =>
  queryOptions({ queryKey: ['admin', 'product', code], queryFn: () => getAdminProduct(code), retry: false });

export const useAdminProduct = (code: string, enabled = true) =>
  useQuery({ ...adminProductQueryOptions(code), enabled });

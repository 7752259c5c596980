import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { AdminCustomerDetail, AdminCustomerRow, AdminCustomersQuery } from '@/shared/schemas/admin.ts';
import { toQueryString } from './query-string.ts';

type CustomerList = { items: AdminCustomerRow[]; total: number; page: number; pages: number };

export const getCustomers = (query: AdminCustomersQuery) =>
  apiFetch<CustomerList>(`/api/admin/customers${toQueryString(query)}`);

export const customersQueryOptions = (query: AdminCustomersQuery) =>
  queryOptions({
    queryKey: ['admin', 'customers', query],
    queryFn: () => getCustomers(query),
    placeholderData: keepPreviousData,
  });

export const useCustomers = (query: AdminCustomersQuery) => useQuery(customersQueryOptions(query));

export const getCustomer = (id: number) => apiFetch<AdminCustomerDetail>(`/api/admin/customers/${id}`);

export const useCustomer = (id: number) =>
  useQuery({ queryKey: ['admin', 'customer', id], queryFn: () => getCustomer(id), retry: false });

/** Makes the purchase-order number required (or not) on every order of this customer (issue 20). */
export function useSetPurchaseOrderRequired(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (required: boolean) =>
      apiFetch<AdminCustomerDetail>(`/api/admin/customers/${id}/purchase-order`, {
        method: 'PUT',
        body: { required },
      }),
    onSuccess: (data) => {
      client.setQueryData(['admin', 'customer', id], data);
      toast.success(
        data.requiresPurchaseOrder
          ? 'La orden de compra ahora es obligatoria para este cliente'
          : 'La orden de compra ya no es obligatoria para este cliente',
      );
    },
    onError: (error) => toast.error(error.message),
  });
}

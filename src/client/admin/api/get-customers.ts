import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
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

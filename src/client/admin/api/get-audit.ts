import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { AuditEntry, AuditQuery } from '@/shared/schemas/admin.ts';
import { toQueryString } from './query-string.ts';

type AuditList = { items: AuditEntry[]; total: number; page: number; pages: number };

export const getAudit = (query: AuditQuery) => apiFetch<AuditList>(`/api/admin/audit${toQueryString(query)}`);

export const useAudit = (query: AuditQuery) =>
  useQuery({
    queryKey: ['admin', 'audit', query],
    queryFn: () => getAudit(query),
    placeholderData: keepPreviousData,
  });

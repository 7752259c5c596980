import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { FiscalProfile } from '@/shared/schemas/invoice.ts';

/** The buyer's saved fiscal profiles (issue 20), offered by the invoice form; same key as the account's list. */
export const useSavedFiscalProfiles = () =>
  useQuery({
    queryKey: ['fiscal-profiles'],
    queryFn: () =>
      apiFetch<{ profiles: FiscalProfile[] }>('/api/account/fiscal-profiles', { timeoutMs: 5000 }),
  });

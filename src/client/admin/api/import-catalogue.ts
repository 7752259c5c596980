import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { ImportReport, ImportRequest } from '@/shared/schemas/admin.ts';

/** POST /api/admin/import */
export const importCatalogue = (body: ImportRequest) =>
  apiFetch<ImportReport>('/api/admin/import', { method: 'POST', body, timeoutMs: 180_000 });

export function useImportCatalogue() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: importCatalogue,
    onSuccess: (report) => {
      if (!report.dryRun) void client.invalidateQueries({ queryKey: ['admin'] });
    },
  });
}

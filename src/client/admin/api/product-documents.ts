import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/client/lib/api-client.ts';
import type { ProductDocuments, UploadCertificate } from '@/shared/schemas/documents-admin.ts';

type DocumentsResponse = { message: string; documents: ProductDocuments };
const base = (code: string) => `/api/admin/products/${encodeURIComponent(code)}`;

/** GET /api/admin/products/:code/documents: the family's HDS and certificates of analysis (decision 028). */
export const useProductDocuments = (code: string) =>
  useQuery({
    queryKey: ['admin', 'documents', code],
    queryFn: () => apiFetch<ProductDocuments>(`${base(code)}/documents`),
    retry: false,
  });

export const uploadSafetySheet = (code: string, contentBase64: string) =>
  apiFetch<DocumentsResponse>(`${base(code)}/hds`, {
    method: 'PUT',
    body: { contentBase64 },
    timeoutMs: 60_000,
  });
export const removeSafetySheet = (code: string) =>
  apiFetch<DocumentsResponse>(`${base(code)}/hds`, { method: 'DELETE' });
export const uploadCertificate = (code: string, body: UploadCertificate) =>
  apiFetch<DocumentsResponse>(`${base(code)}/certificates`, { method: 'POST', body, timeoutMs: 60_000 });
export const removeCertificate = (code: string, id: number) =>
  apiFetch<DocumentsResponse>(`${base(code)}/certificates/${id}`, { method: 'DELETE' });

/** A change to the documents: the answer carries the family's documents as they now are. */
export function useDocumentsMutation<T>(code: string, fn: (input: T) => Promise<DocumentsResponse>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (data) => client.setQueryData(['admin', 'documents', code], data.documents),
  });
}

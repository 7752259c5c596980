import { apiFetch } from '@/client/lib/api-client.ts';
import type { SuggestResponse } from '@/shared/schemas/catalog.ts';

/** GET /api/search/suggest (2+ characters); the caller aborts it when the shopper types on. */
export const getSuggestions = (q: string, signal: AbortSignal) =>
  apiFetch<SuggestResponse>(`/api/search/suggest?q=${encodeURIComponent(q)}`, { timeoutMs: 4000, signal });

import { toast } from 'sonner';
import { ApiError } from '@/client/lib/api-client.ts';

/**
 * Shows a failed call the way the spec wants: the server's message as an error toast, its field
 * messages under the fields; a network failure gets `networkMessage`.
 */
export function showServerError(
  error: unknown,
  networkMessage: string,
  setFieldError?: (field: string, message: string) => void,
) {
  if (error instanceof ApiError && error.status !== 0) {
    if (setFieldError)
      for (const [field, message] of Object.entries(error.fields ?? {})) setFieldError(field, message);
    toast.error(error.message);
  } else {
    toast.error(networkMessage);
  }
}

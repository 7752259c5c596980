import { useQueryClient } from '@tanstack/react-query';
import { ApiError } from '@/client/lib/api-client.ts';
import { useSingleFlight } from '@/client/lib/use-single-flight.ts';
import type { ListDetail } from '@/shared/schemas/lists.ts';

/** The Spanish message of a failed list call: the server's, or the connection's. */
export const listFailure = (e: unknown) =>
  e instanceof ApiError && e.status !== 0 ? e.message : 'Error de conexión. Intente de nuevo.';

/**
 * A change to a saved list from a form or a button (the product page, the cart, 'Mis listas'): one call at a
 * time (`busy` disables the button), a failure shown through `setError`. `save` also puts the list the server
 * answered in the cache and reloads the summaries of 'Mis listas', then calls `then` with it.
 */
export function useListChange(setError: (message: string | null) => void) {
  const flight = useSingleFlight();
  const client = useQueryClient();
  const attempt = (action: () => Promise<void>) =>
    flight.run(async () => {
      try {
        await action();
      } catch (err) {
        setError(listFailure(err));
      }
    });
  const save = (call: () => Promise<ListDetail>, then: (list: ListDetail) => void = () => {}) =>
    attempt(async () => {
      const list = await call();
      client.setQueryData(['lists', list.id], list);
      void client.invalidateQueries({ queryKey: ['lists'], exact: true });
      then(list);
    });
  return { busy: flight.busy, attempt, save, client };
}

import { useCallback, useRef, useState } from 'react';

/**
 * An action button's guard: from the first click until the answer, further clicks do nothing and `busy` is
 * true (the button renders disabled). A mutation's own `isPending` is not enough: TanStack Query sets it a tick
 * later, so a double click sent the request twice ('Cancelar pedido' cancelled, then said 'El pedido ya está
 * cancelado').
 */
export function useSingleFlight() {
  const running = useRef(false);
  const [busy, setBusy] = useState(false);
  const run = useCallback((action: () => Promise<unknown>) => {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    action()
      .catch(() => {})
      .finally(() => {
        running.current = false;
        setBusy(false);
      });
  }, []);
  return { busy, run };
}

/**
 * The bound for what follows the first click on a page just loaded. That click usually lands before React has
 * hydrated the page: the boot script keeps it, loads the JavaScript and gives it back once hydration is done
 * (src/server/spa/boot-script.ts), and only then does the toast's code load. On a quiet machine that is well under a
 * second; with the API tests beside the journeys on two cores (load ≈ 14 in CI) it has taken more than the default
 * 10 s. The expectation still fails when the click is lost: it waits for a condition, not for time.
 */
export const AFTER_FIRST_CLICK = { timeout: 30_000 } as const;

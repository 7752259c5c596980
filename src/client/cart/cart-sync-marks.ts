/** Which user this browser's local cart is a copy of, and whether a change has not reached the server yet. */

/**
 * Marks which user the local cart is a copy of. At a real sign-in (no mark, or another user's) the local cart is
 * MERGED into the saved one; on a later visit of the same signed-in user the saved cart simply REPLACES the local
 * copy, so a line removed on another device does not come back from this one — unless the local cart holds a change
 * that never reached the server (UNSAVED_KEY), which is then saved instead.
 */
const SYNCED_KEY = 'cartSyncedUser';
/**
 * Set while a change of this tab has not reached the server yet (the save waits PUT_DELAY_MS, and a page load or
 * a closed tab can cut it off). The next visit then saves the local cart instead of replacing it with the server's.
 */
const UNSAVED_KEY = 'cartUnsaved';

export function syncedUser(): number | null {
  try {
    const raw = localStorage.getItem(SYNCED_KEY);
    return raw ? Number(raw) : null;
  } catch {
    return null;
  }
}
export function markSynced(userId: number | null) {
  try {
    if (userId === null) localStorage.removeItem(SYNCED_KEY);
    else localStorage.setItem(SYNCED_KEY, String(userId));
  } catch {
    // Without storage the next visit merges again, which is harmless (the larger quantity wins).
  }
}
export function hasUnsaved(): boolean {
  try {
    return localStorage.getItem(UNSAVED_KEY) === '1';
  } catch {
    return false;
  }
}
export function markUnsaved(unsaved: boolean) {
  try {
    if (unsaved) localStorage.setItem(UNSAVED_KEY, '1');
    else localStorage.removeItem(UNSAVED_KEY);
  } catch {
    // Without storage there is no local cart to keep either.
  }
}

/** A visitor's changes stay local; a later sign-in merges the cart as it is then. */
export function forgetSyncedUser() {
  markSynced(null);
  markUnsaved(false);
}

/**
 * 'Por agotarse' (issue 36, decision 066): the arithmetic the server's list, the almacén's digest and the screen
 * share. The server decides what is listed; the screen only shows it.
 */

/** Sales are read over this many days (Mexico City days, counted back from now). */
export const SALES_WINDOW_DAYS = 90;
/** A presentation whose stock lasts fewer days than this at the recent pace is listed even above its reorder point. */
export const RUN_OUT_HORIZON_DAYS = 14;
/** A reorder point is a whole number of units within this range. */
export const MAX_REORDER_POINT = 100_000;

/**
 * Days the stock lasts at the pace of the last SALES_WINDOW_DAYS days: stock ÷ (units sold ÷ days), rounded down
 * (a day that cannot be served in full is not counted). No stock: 0 — it ran out whatever the sales. No sales with
 * stock: null ('sin ventas'), nothing to project from.
 */
export function daysOfStockLeft(stock: number, soldInWindow: number): number | null {
  if (stock <= 0) return 0;
  if (soldInWindow <= 0) return null;
  return Math.floor((stock * SALES_WINDOW_DAYS) / soldInWindow);
}

/** How the screen and the mail say it. */
export function daysLeftLabel(days: number | null): string {
  if (days === null) return 'Sin ventas en 90 días';
  if (days === 0) return 'Agotado';
  return days === 1 ? '1 día' : `${days} días`;
}

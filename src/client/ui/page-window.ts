/** One slot of the paginator: a page number or an ellipsis. */
export type PageSlot = number | 'gap';

/**
 * Spec §9: a window of 5 page numbers around the current one, plus the first and last page, with an
 * ellipsis where numbers are skipped. A current page past the last is treated as the last for the window.
 */
export function pageWindow(current: number, pages: number, size = 5): PageSlot[] {
  if (pages <= 0) return [];
  const at = Math.min(Math.max(current, 1), pages);
  const start = Math.max(1, Math.min(at - Math.floor(size / 2), pages - size + 1));
  const end = Math.min(pages, start + size - 1);
  const slots: PageSlot[] = [];
  if (start > 1) slots.push(1);
  if (start > 2) slots.push('gap');
  for (let n = start; n <= end; n++) slots.push(n);
  if (end < pages - 1) slots.push('gap');
  if (end < pages) slots.push(pages);
  return slots;
}

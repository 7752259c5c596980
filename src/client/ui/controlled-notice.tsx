import { CONTROLLED_NOTICE } from '@/shared/controlled.ts';

/** Tells the buyer before checkout what a controlled chemical requires (decision 030): product page and cart. */
export function ControlledNotice({ compact = false }: { compact?: boolean }) {
  return (
    <p
      className={
        compact
          ? 'mt-1 text-xs font-medium text-amber-800'
          : 'mt-4 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm font-medium text-amber-900'
      }
      data-testid="controlled-notice"
    >
      {CONTROLLED_NOTICE}
    </p>
  );
}

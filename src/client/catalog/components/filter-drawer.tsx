import { type ReactNode, useEffect, useRef } from 'react';
import { CloseIcon } from '@/client/ui/icons.tsx';

/**
 * The mobile filter drawer: a modal <dialog> from the left (focus stays inside, Escape closes).
 * Filters apply as they are ticked; the footer button closes the drawer and shows the results.
 */
export function FilterDrawer({
  open,
  onClose,
  total,
  children,
}: {
  open: boolean;
  onClose: () => void;
  total: number | undefined;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      aria-labelledby="filtros-titulo"
      onClose={onClose}
      onClick={(e) => e.target === e.currentTarget && onClose()}
      onKeyDown={(e) => e.key === 'Escape' && onClose()}
      className="m-0 h-dvh max-h-none w-88 max-w-[90vw] bg-white p-0 shadow-2xl backdrop:bg-slate-900/50 lg:hidden"
    >
      <div className="flex h-full flex-col">
        <div className="flex items-center justify-between border-b border-slate-200 px-4 py-3">
          <h2 id="filtros-titulo" className="text-lg font-semibold text-slate-900">
            Filtros
          </h2>
          <button
            type="button"
            onClick={onClose}
            aria-label="Cerrar filtros"
            className="rounded p-1.5 text-slate-700 hover:bg-slate-100"
          >
            <CloseIcon />
          </button>
        </div>
        <div className="flex-1 overflow-y-auto px-4 py-5">{children}</div>
        <div className="border-t border-slate-200 p-4">
          <button
            type="button"
            onClick={onClose}
            className="w-full rounded-md bg-brand-700 px-4 py-3 font-medium text-white hover:bg-brand-800"
          >
            {total === undefined ? 'Ver productos' : `Ver ${total} ${total === 1 ? 'producto' : 'productos'}`}
          </button>
        </div>
      </div>
    </dialog>
  );
}

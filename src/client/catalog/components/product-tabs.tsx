import { type KeyboardEvent, type MouseEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';

/** The product page's tabs; the ids are the addresses' fragments (#seguridad) and styles.css names them. */
export type ProductTabId = 'caracteristicas' | 'seguridad' | 'documentos';
export type ProductTab = { id: ProductTabId; label: string; content: ReactNode };

const fragment = () => decodeURIComponent(globalThis.location?.hash.slice(1) ?? '');

/**
 * WAI-ARIA tabs (decision 036) that work before and without JavaScript. The server renders every panel; the
 * tabs are links to the panels' fragments (#seguridad), and styles.css shows the panel the address names
 * (`:target`), else the first. After hydration (`ready`) the selection is state: roving tabindex, Left/Right/
 * Home/End, `hidden` on the other panels, the address's fragment kept up to date without a scroll. The first
 * client render equals the server's (nothing selected by state, CSS decides), and the panel CSS showed stays
 * the one shown, so hydration neither differs nor moves anything.
 */
export function ProductTabs({ label, tabs }: { label: string; tabs: ProductTab[] }) {
  const [selected, setSelected] = useState<ProductTabId | null>(null);
  const tabRefs = useRef(new Map<ProductTabId, HTMLAnchorElement>());
  const ids = tabs.map((t) => t.id).join(' ');

  useEffect(() => {
    const known = ids.split(' ') as ProductTabId[];
    const fromAddress = () => {
      const id = fragment() as ProductTabId;
      return known.includes(id) ? id : null;
    };
    setSelected(fromAddress() ?? known[0]!);
    // A link elsewhere on the page to a panel ('Ver información de seguridad (SGA)' → #seguridad): the panel is
    // shown before the browser follows the link, so the browser scrolls to a visible panel as it always did.
    const onClick = (event: globalThis.MouseEvent) => {
      const link = (event.target as Element | null)?.closest?.('a[href^="#"]');
      if (!link || link.getAttribute('role') === 'tab') return;
      const id = decodeURIComponent(link.getAttribute('href')!.slice(1)) as ProductTabId;
      if (known.includes(id)) flushSync(() => setSelected(id));
    };
    // Back and forward between fragments, or a fragment typed into the address bar.
    const onHashChange = () => {
      const id = fromAddress();
      if (id) setSelected(id);
    };
    document.addEventListener('click', onClick, true);
    window.addEventListener('hashchange', onHashChange);
    return () => {
      document.removeEventListener('click', onClick, true);
      window.removeEventListener('hashchange', onHashChange);
    };
  }, [ids]);

  const ready = selected !== null;
  const current = selected ?? tabs[0]!.id;

  const select = (id: ProductTabId, focus: boolean) => {
    setSelected(id);
    // The address names the open tab (a reload or a shared link opens it), without a jump: replaceState
    // neither scrolls nor adds a history entry; the router's own state is kept.
    if (fragment() !== id) history.replaceState(history.state, '', `#${id}`);
    if (focus) tabRefs.current.get(id)?.focus();
  };

  const onTabClick = (event: MouseEvent<HTMLAnchorElement>, id: ProductTabId) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.button !== 0) return;
    event.preventDefault();
    select(id, false);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const at = tabs.findIndex((t) => t.id === current);
    const next =
      event.key === 'ArrowRight'
        ? (at + 1) % tabs.length
        : event.key === 'ArrowLeft'
          ? (at - 1 + tabs.length) % tabs.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? tabs.length - 1
              : -1;
    if (next < 0) return;
    event.preventDefault();
    select(tabs[next]!.id, true);
  };

  return (
    <div className="product-tabs" data-ready={ready ? '' : undefined}>
      <div
        role="tablist"
        aria-label={label}
        onKeyDown={onKeyDown}
        className="product-tablist flex overflow-x-auto border-b border-slate-200 print:hidden"
      >
        {tabs.map((t) => (
          <a
            key={t.id}
            ref={(el) => {
              if (el) tabRefs.current.set(t.id, el);
              else tabRefs.current.delete(t.id);
            }}
            href={`#${t.id}`}
            role="tab"
            id={`tab-${t.id}`}
            aria-controls={t.id}
            aria-selected={t.id === current}
            // Roving tabindex once the keys work; before, every tab is a plain link the keyboard reaches.
            tabIndex={ready ? (t.id === current ? 0 : -1) : undefined}
            onClick={(e) => onTabClick(e, t.id)}
            className="product-tab -mb-px shrink-0 grow whitespace-nowrap border-b-2 px-2 py-2.5 text-center text-sm font-semibold sm:grow-0 sm:px-4"
          >
            {t.label}
          </a>
        ))}
      </div>
      <div className="product-tabpanels">
        {tabs.map((t) => (
          <div
            key={t.id}
            role="tabpanel"
            id={t.id}
            aria-labelledby={`tab-${t.id}`}
            hidden={ready && t.id !== current}
            // biome-ignore lint/a11y/noNoninteractiveTabindex: the tabs pattern makes the panel a stop after its tab
            tabIndex={0}
            className="scroll-mt-60 rounded-b-lg border border-t-0 border-slate-200 bg-white p-5 sm:p-8 print:mt-6 print:rounded-lg print:border-t"
          >
            {/* On paper every panel is printed, each under its tab's name. */}
            <h3 className="mb-4 hidden text-lg font-semibold text-slate-900 print:block">{t.label}</h3>
            {t.content}
          </div>
        ))}
      </div>
    </div>
  );
}

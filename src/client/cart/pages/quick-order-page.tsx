import { type FormEvent, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { ApiError } from '@/client/lib/api-client.ts';
import { getCartItems, setCartItems, useCartItems } from '@/client/lib/cart-store.ts';
import { Alert } from '@/client/ui/alert.tsx';
import { PageHeading } from '@/client/ui/page-heading.tsx';
import { formatMoney } from '@/shared/money.ts';
import {
  QUICK_ORDER_MAX_FILE_BYTES,
  QUICK_ORDER_MAX_LINES,
  type QuickOrderLine,
  type QuickOrderResponse,
} from '@/shared/schemas/quick-order.ts';
import { previewQuickOrder } from '../api/quick-order.ts';
import { addLines } from '../cart-rules.ts';

const statusLabel: Record<QuickOrderLine['status'], string> = {
  ok: 'Encontrado',
  not_found: 'No encontrado',
  inactive: 'No disponible',
  no_stock: 'Sin existencia',
  above_stock: 'Límite de stock',
  invalid: 'No se pudo leer',
};
const statusTone: Record<QuickOrderLine['status'], string> = {
  ok: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  not_found: 'bg-red-50 text-red-800 ring-red-200',
  inactive: 'bg-slate-100 text-slate-700 ring-slate-300',
  no_stock: 'bg-amber-50 text-amber-900 ring-amber-200',
  above_stock: 'bg-amber-50 text-amber-900 ring-amber-200',
  invalid: 'bg-red-50 text-red-800 ring-red-200',
};

const EXAMPLE = 'LBN-10001 2\nCRX-10000\t5\nqmv-10020;1';

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/**
 * /pedido_rapido: paste 'CÓDIGO CANTIDAD' lines or upload a CSV; the server reads every line and says what it
 * found; 'Agregar al carrito' adds the lines that are ready under the cart's stock rule.
 */
export function Component() {
  const [text, setText] = useState('');
  const [preview, setPreview] = useState<QuickOrderResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{
    added: number;
    refused: string[];
    cartFull: string | null;
  } | null>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const textId = useId();
  const fileId = useId();
  const cart = useCartItems();

  async function run(body: Parameters<typeof previewQuickOrder>[0]) {
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      setPreview(await previewQuickOrder(body));
    } catch (e) {
      setPreview(null);
      setError(e instanceof ApiError ? e.message : 'No pudimos revisar la lista. Intente de nuevo.');
    } finally {
      setBusy(false);
    }
  }

  const cartLines = () => getCartItems().map((i) => ({ code: i.code, quantity: i.quantity }));

  function submitText(e: FormEvent) {
    e.preventDefault();
    if (!text.trim()) {
      setError('Pegue al menos una línea con un código y una cantidad.');
      return;
    }
    void run({ text, cart: cartLines() });
  }

  async function onFile(file: File | undefined) {
    if (!file) return;
    if (file.size > QUICK_ORDER_MAX_FILE_BYTES) {
      setPreview(null);
      setError(
        `El archivo pesa ${Math.ceil(file.size / 1000)} KB; el límite es ${QUICK_ORDER_MAX_FILE_BYTES / 1000} KB.`,
      );
      return;
    }
    const bytes = new Uint8Array(await file.arrayBuffer());
    void run({ file: { name: file.name, base64: toBase64(bytes) }, cart: cartLines() });
    if (fileRef.current) fileRef.current.value = '';
  }

  const ready = preview?.lines.filter((l) => l.status === 'ok' && l.product && l.code && l.quantity) ?? [];
  const problems = preview ? preview.lines.length - ready.length : 0;

  function addAll() {
    const lines = ready.map((l) => ({
      product: {
        code: l.code!,
        name: l.product!.name,
        priceCents: l.product!.priceCents,
        stock: l.product!.stock,
        imageUrl: l.product!.imageUrl,
        leadTime: l.product!.leadTime ?? null,
      },
      quantity: l.quantity!,
    }));
    const r = addLines(getCartItems(), lines);
    setCartItems(r.items);
    setResult({
      added: r.added.length,
      refused: r.refused.filter((x) => x.reason !== 'cart_full').map((x) => x.code),
      cartFull: r.cartFull,
    });
    setPreview(null);
    setText('');
  }

  return (
    <div className="mx-auto max-w-5xl px-4 py-6 sm:py-8">
      <PageHeading title="Pedido rápido" />
      <p className="mt-2 max-w-3xl text-slate-600">
        Pegue los códigos de catálogo y las cantidades, una línea por producto (separados por espacio,
        tabulador, coma o punto y coma), o suba un archivo de Excel o CSV exportado de su sistema. Revisamos
        cada línea antes de agregarla al carrito.
      </p>

      {result && (
        <div className="mt-6" data-testid="quick-order-result">
          <Alert tone={result.refused.length || result.cartFull ? 'warning' : 'success'}>
            {result.added === 1
              ? 'Se agregó 1 producto al carrito.'
              : `Se agregaron ${result.added} productos al carrito.`}
            {result.refused.length > 0 && ` Límite de stock: no se agregaron ${result.refused.join(', ')}.`}
            {result.cartFull && ` ${result.cartFull}`}{' '}
            <Link to="/carrito" className="font-semibold underline">
              Ver carrito
            </Link>
          </Alert>
        </div>
      )}

      <div className="mt-6 grid gap-6 lg:grid-cols-[1fr_18rem]">
        <form
          onSubmit={submitText}
          className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-5"
        >
          <label htmlFor={textId} className="block font-medium text-slate-900">
            Códigos y cantidades
          </label>
          <textarea
            id={textId}
            value={text}
            onChange={(e) => setText(e.target.value)}
            rows={10}
            spellCheck={false}
            placeholder={EXAMPLE}
            aria-describedby={`${textId}-help`}
            className="mt-2 w-full rounded-md border border-slate-300 px-3 py-2 font-mono text-sm outline-none focus:border-brand-500 focus:ring-2 focus:ring-brand-100"
          />
          <p id={`${textId}-help`} className="mt-1 text-sm text-slate-500">
            Hasta {QUICK_ORDER_MAX_LINES} líneas. Sin cantidad se toma 1. Puede copiar las celdas desde Excel.
          </p>
          <button
            type="submit"
            disabled={busy}
            className="mt-4 inline-flex items-center justify-center rounded-md bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800 disabled:opacity-70"
          >
            {busy ? 'Revisando…' : 'Revisar lista'}
          </button>
        </form>
        <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
          <label htmlFor={fileId} className="block font-medium text-slate-900">
            O suba un archivo
          </label>
          <p className="mt-1 text-sm text-slate-600">
            Libro de Excel (.xlsx, se lee la primera hoja), CSV o texto (UTF-8 o Latin-1), hasta{' '}
            {QUICK_ORDER_MAX_FILE_BYTES / 1000} KB, con el código en la primera columna y la cantidad en otra.
          </p>
          <input
            ref={fileRef}
            id={fileId}
            type="file"
            accept=".xlsx,.csv,.txt,text/csv,text/plain,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            disabled={busy}
            onChange={(e) => void onFile(e.target.files?.[0])}
            className="mt-3 block w-full text-sm text-slate-700 file:mr-3 file:rounded-md file:border-0 file:bg-brand-50 file:px-3 file:py-2 file:font-medium file:text-brand-800"
          />
        </div>
      </div>

      {error && (
        <div className="mt-6" role="alert">
          <Alert tone="danger">{error}</Alert>
        </div>
      )}

      {preview && (
        <section aria-labelledby="revision" className="mt-8">
          <div className="flex flex-wrap items-end justify-between gap-3">
            <div>
              <h2 id="revision" className="text-lg font-semibold text-slate-900">
                Revisión de su lista
              </h2>
              <p className="text-sm text-slate-600" data-testid="quick-order-summary">
                {ready.length} {ready.length === 1 ? 'línea lista' : 'líneas listas'}
                {problems > 0
                  ? ` · ${problems} con ${problems === 1 ? 'un problema' : 'problemas'} (no se agregan)`
                  : ''}
              </p>
            </div>
            <button
              type="button"
              onClick={addAll}
              disabled={ready.length === 0}
              className="inline-flex items-center justify-center rounded-md bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800 disabled:cursor-not-allowed disabled:bg-slate-300"
            >
              Agregar al carrito ({ready.length})
            </button>
          </div>
          {preview.notes.map((n) => (
            <p key={n} className="mt-3 text-sm text-slate-600">
              {n}
            </p>
          ))}
          <ol className="mt-4 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
            {preview.lines.map((l) => (
              <li
                key={l.line}
                className="flex flex-col gap-2 p-3 sm:flex-row sm:items-start sm:gap-4"
                data-status={l.status}
              >
                <span className="w-16 shrink-0 text-xs text-slate-500">Línea {l.line}</span>
                <div className="min-w-0 flex-1">
                  <div className="flex flex-wrap items-center gap-2">
                    <span
                      className={`rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ${statusTone[l.status]}`}
                    >
                      {statusLabel[l.status]}
                    </span>
                    {l.code && l.product ? (
                      <Link
                        to={`/productos/${encodeURIComponent(l.code)}`}
                        className="font-medium text-slate-900 hover:underline"
                      >
                        {l.code} · {l.product.name}
                      </Link>
                    ) : (
                      <code className="text-sm text-slate-700 [overflow-wrap:anywhere]">{l.source}</code>
                    )}
                  </div>
                  <p className="mt-1 text-sm text-slate-600">{l.message}</p>
                  {l.suggestions.length > 0 && (
                    <p className="mt-1 text-sm text-slate-600">
                      ¿Quiso decir{' '}
                      {l.suggestions.map((s, i) => (
                        <span key={s.code}>
                          {i > 0 ? ', ' : ''}
                          <Link
                            to={`/productos/${encodeURIComponent(s.code)}`}
                            className="font-medium text-brand-700 hover:underline"
                          >
                            {s.code}
                          </Link>{' '}
                          <span className="text-slate-500">({s.name})</span>
                        </span>
                      ))}
                      ?
                    </p>
                  )}
                </div>
                {l.product && l.quantity ? (
                  <div
                    className="shrink-0 text-sm text-slate-700 sm:w-40 sm:text-right"
                    data-testid="quick-order-price"
                  >
                    <div>
                      {l.quantity} × {formatMoney(l.product.unitPriceCents)}
                    </div>
                    {l.product.unitPriceCents < l.product.priceCents ? (
                      <div className="text-xs text-slate-500">
                        Precio por volumen · lista{' '}
                        <span className="line-through">{formatMoney(l.product.priceCents)}</span>
                      </div>
                    ) : null}
                    <div className="text-xs text-slate-500">
                      Existencia {l.product.stock}
                      {l.product.inCart > 0 ? ` · en carrito ${l.product.inCart}` : ''}
                    </div>
                  </div>
                ) : null}
              </li>
            ))}
          </ol>
        </section>
      )}
      {cart.length > 0 && !preview && !result && (
        <p className="mt-6 text-sm text-slate-600">
          Su carrito ya tiene {cart.length} {cart.length === 1 ? 'producto' : 'productos'}: las cantidades se
          suman.
        </p>
      )}
    </div>
  );
}

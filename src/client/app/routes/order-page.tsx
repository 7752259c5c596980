import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { useAddresses } from '@/client/account/api/addresses.ts';
import { useShippingAddress } from '@/client/account/api/get-shipping-address.ts';
import { InstitutionShipTo } from '@/client/account/components/institution-ship-to.tsx';
import { useCartQuote } from '@/client/cart/api/quote-cart.ts';
import { AddressCard } from '@/client/checkout/components/address-card.tsx';
import { PaymentSuccess } from '@/client/checkout/components/card-payment.tsx';
import { ControlledDeclaration } from '@/client/checkout/components/controlled-declaration.tsx';
import { DeliveryChoice, type DeliveryPick } from '@/client/checkout/components/delivery-choice.tsx';
import { InvoiceAtPurchase } from '@/client/checkout/components/invoice-at-purchase.tsx';
import { PaymentChoice } from '@/client/checkout/components/payment-choice.tsx';
import { PurchaseOrderField } from '@/client/checkout/components/purchase-order-field.tsx';
import { RequireSignedIn } from '@/client/lib/auth/require-signed-in.tsx';
import { setCartItems, useCartItems } from '@/client/lib/cart-store.ts';
import { useQuotation } from '@/client/quotations/api/quotations.ts';
import { Alert } from '@/client/ui/alert.tsx';
import { CheckoutSteps } from '@/client/ui/checkout-steps.tsx';
import { shopTitle, useDocumentTitle } from '@/client/ui/page-heading.tsx';
import { Spinner } from '@/client/ui/spinner.tsx';
import { type LeadTime, splitText } from '@/shared/backorder.ts';
import { formatMoney } from '@/shared/money.ts';
import type { ControlledDeclarationInput } from '@/shared/schemas/controlled.ts';

const REDIRECT_DELAY_MS = 2500;

/** The lines and amounts checkout shows: the cart's quote, or a quotation's (issue 20), both from the server. */
type Priced = {
  lines: {
    code: string;
    name: string | null;
    quantity: number;
    unitPriceCents: number;
    lineTotalCents: number;
    imageUrl: string | null;
    error: string | null;
    /** 'Sobre pedido' (decision 029): the units stock does not cover now, and their lead time. */
    backordered?: number;
    leadTime?: LeadTime | null;
    /** Under the precursor law (decision 030): the declaration step appears. */
    controlled: boolean;
  }[];
  subtotalCents: number;
  shippingCents: number;
  ivaCents: number;
  totalCents: number;
  ok: boolean;
};

function Checkout() {
  const [params] = useSearchParams();
  const folio = params.get('cotizacion');
  const quotation = useQuotation(folio);
  const cartItems = useCartItems();
  const items = useMemo(
    () =>
      folio
        ? (quotation.data?.lines.map((l) => ({ code: l.code, name: l.description, quantity: l.quantity })) ??
          [])
        : cartItems,
    [folio, quotation.data, cartItems],
  );
  const quoteItems = useMemo(() => items.map(({ code, quantity }) => ({ code, quantity })), [items]);
  // Issue 35: the way it travels changes the shipping; a way the cart may not use falls back to ground.
  const [pick, setPick] = useState<DeliveryPick>({ method: 'ground', branch: null });
  const cartQuote = useCartQuote(folio ? [] : quoteItems, true, pick.method);
  const deliveryOptions = folio ? undefined : cartQuote.data?.delivery;
  const refusedPick = deliveryOptions?.options.find((o) => o.method === pick.method)?.refusal;
  useEffect(() => {
    if (refusedPick) {
      const fallback = deliveryOptions?.options.find((o) => o.refusal === null)?.method ?? 'pickup';
      setPick({ method: fallback, branch: fallback === 'pickup' ? 0 : null });
    }
  }, [refusedPick, deliveryOptions]);
  const [purchaseOrder, setPurchaseOrder] = useState<{ value: string; valid: boolean }>({
    value: '',
    valid: true,
  });
  const [invoiceProfileId, setInvoiceProfileId] = useState<number | null>(null);
  const [declaration, setDeclaration] = useState<ControlledDeclarationInput | null>(null);
  const onPurchaseOrder = useCallback(
    (value: string, valid: boolean) =>
      setPurchaseOrder((prev) => (prev.value === value && prev.valid === valid ? prev : { value, valid })),
    [],
  );
  const quote: { data: Priced | undefined; isPending: boolean; isFetching: boolean; isError: boolean } = folio
    ? {
        data: quotation.data && {
          lines: quotation.data.lines.map((l) => ({
            code: l.code,
            name: l.description,
            quantity: l.quantity,
            unitPriceCents: l.unitPriceCents,
            lineTotalCents: l.amountCents,
            imageUrl: null,
            error: null,
            controlled: l.controlled,
          })),
          subtotalCents: quotation.data.subtotalCents,
          shippingCents: quotation.data.shippingCents,
          ivaCents: quotation.data.ivaCents,
          totalCents: quotation.data.totalCents,
          ok: quotation.data.canConvert,
        },
        isPending: quotation.isPending,
        isFetching: quotation.isFetching,
        isError: quotation.isError,
      }
    : cartQuote;
  const defaultAddress = useShippingAddress();
  // 'Mis direcciones' (issue 20): the default comes chosen; the buyer may pick another of their own.
  const addresses = useAddresses();
  const [addressId, setAddressId] = useState<number | null>(null);
  // Buying for an institution (issue 34): one of its shared addresses instead.
  const [institutionAddressId, setInstitutionAddressId] = useState<number | null>(null);
  const chosen = addresses.data?.find((a) => a.id === addressId);
  const address = { ...defaultAddress, data: chosen ?? defaultAddress.data };
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [paid, setPaid] = useState(false);

  // What the progress bar ticks is what is really done: a cart with products, a saved address.
  const completed = items.length > 0 ? [1, ...(address.data ? [2] : [])] : [];
  const steps = (
    <>
      <CheckoutSteps current={3} completed={completed} />
      <h1 className="mb-6 text-2xl font-semibold text-slate-900 sm:text-3xl">Compra</h1>
    </>
  );
  if (paid)
    return (
      <>
        {steps}
        <PaymentSuccess />
      </>
    );
  // Signed in without an address (e.g. right after 'Finalizar compra' and the sign-in): the address comes first.
  if (items.length > 0 && address.isSuccess && !address.data) return <Navigate to="/envio" replace />;
  if (folio && quotation.isPending) return <Spinner />;
  if (folio && (quotation.isError || quotation.data?.canConvert === false)) {
    return (
      <>
        {steps}
        <Alert tone="danger">
          {quotation.isError
            ? quotation.error.message
            : `La cotización ${folio} está ${quotation.data?.stateLabel.toLowerCase()}; no puede convertirse en pedido.`}{' '}
          <Link to="/cotizaciones" className="font-semibold underline">
            Ver mis cotizaciones
          </Link>
        </Alert>
      </>
    );
  }
  if (items.length === 0) {
    return (
      <>
        {steps}
        <div className="rounded-lg border border-dashed border-slate-300 px-6 py-12 text-center">
          <p className="font-medium text-slate-800">Su carrito está vacío</p>
          <Link to="/" className="mt-4 inline-block font-medium text-brand-700 hover:underline">
            Seguir comprando
          </Link>
        </div>
      </>
    );
  }

  const data = quote.data;
  const problems = data?.lines.filter((l) => l.error) ?? [];
  const lines = data?.lines ?? [];
  const controlled = lines.filter((l) => l.controlled).map((l) => l.name ?? l.code);
  const canPay =
    Boolean(data?.ok) &&
    !quote.isFetching &&
    Boolean(address.data) &&
    !refusedPick &&
    purchaseOrder.valid &&
    (controlled.length === 0 || declaration !== null);

  const onPaid = (number: number) => {
    setPaid(true);
    // Converting a quotation buys the quotation, not the cart: the cart stays as it was.
    if (!folio) setCartItems([]);
    void queryClient.invalidateQueries({ queryKey: ['quotations'] });
    void queryClient.invalidateQueries({ queryKey: ['orders'] });
    setTimeout(() => navigate(`/resumen/${number}`, { replace: true }), REDIRECT_DELAY_MS);
  };
  // SPEI or cash: the order holds the products; its page shows how to pay.
  const onAwaiting = (number: number) => {
    setCartItems([]);
    void queryClient.invalidateQueries({ queryKey: ['orders'] });
    navigate(`/resumen/${number}`, { replace: true });
  };

  return (
    <>
      {steps}
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_380px]">
        <div className="min-w-0 space-y-6">
          <section
            aria-labelledby="productos"
            className="rounded-xl border border-slate-200 bg-white shadow-sm"
          >
            <h2 id="productos" className="border-b border-slate-100 px-5 py-3 font-semibold text-slate-900">
              {folio ? `Productos de la cotización ${folio}` : 'Productos'}
            </h2>
            {quote.isPending ? (
              <Spinner />
            ) : (
              <ul className="divide-y divide-slate-100">
                {lines.map((line) => (
                  <li key={line.code} className="flex gap-4 px-5 py-4" data-testid="order-line">
                    <div className="size-16 shrink-0 overflow-hidden rounded-md border border-slate-200 bg-slate-50">
                      {line.imageUrl && (
                        <img src={`${line.imageUrl}&w=160`} alt="" className="size-full object-contain" />
                      )}
                    </div>
                    <div className="min-w-0 flex-1">
                      <Link
                        to={`/productos/${encodeURIComponent(line.code)}`}
                        className="font-medium break-words text-slate-900 hover:text-brand-700"
                      >
                        {line.name ?? line.code}
                      </Link>
                      <p className="mt-1 text-sm text-slate-600">
                        {line.quantity} × {formatMoney(line.unitPriceCents)}
                      </p>
                      {line.leadTime && line.backordered ? (
                        <p className="mt-1 text-sm font-medium text-amber-800" data-testid="line-backorder">
                          {splitText(line.quantity - line.backordered, line.backordered, line.leadTime)}
                        </p>
                      ) : null}
                      {line.error && <p className="mt-1 text-sm font-medium text-red-600">{line.error}</p>}
                    </div>
                    <p className="shrink-0 font-semibold text-slate-900" data-testid="order-line-total">
                      {formatMoney(line.lineTotalCents)}
                    </p>
                  </li>
                ))}
              </ul>
            )}
            <dl className="space-y-2 border-t border-slate-100 px-5 py-4 text-sm">
              <div className="flex justify-between">
                <dt className="text-slate-600">Subtotal</dt>
                <dd data-testid="order-subtotal">{formatMoney(data?.subtotalCents ?? 0)}</dd>
              </div>
              <div className="flex justify-between">
                <dt className="text-slate-600">Envío</dt>
                <dd data-testid="order-shipping">{formatMoney(data?.shippingCents ?? 0)}</dd>
              </div>
              <div className="flex justify-between border-t border-slate-100 pt-2 text-base font-bold text-slate-900">
                <dt>Total</dt>
                <dd data-testid="order-total">{formatMoney(data?.totalCents ?? 0)}</dd>
              </div>
              {data && (
                <p className="text-right text-xs text-slate-500">
                  Incluye IVA por {formatMoney(data.ivaCents)}
                </p>
              )}
            </dl>
          </section>
          {problems.length > 0 && (
            <Alert tone="danger">
              Algunos productos ya no pueden comprarse como están en su carrito.{' '}
              <Link to="/carrito" className="font-semibold underline">
                Revise su carrito
              </Link>
            </Alert>
          )}
          {quote.isError && (
            <Alert tone="warning">
              No pudimos calcular el envío. Intente de nuevo en unos momentos para poder pagar.
            </Alert>
          )}
          <Link
            to={folio ? '/cotizaciones' : '/carrito'}
            className="inline-block text-sm font-medium text-brand-700 hover:underline"
          >
            ← Volver
          </Link>
        </div>

        <div className="min-w-0 space-y-6">
          <AddressCard
            address={address.data ?? null}
            loading={address.isPending}
            addresses={addresses.data ?? []}
            onSelect={setAddressId}
          />
          <InstitutionShipTo onChange={setInstitutionAddressId} />
          {!folio && address.data ? (
            <DeliveryChoice delivery={deliveryOptions} value={pick} onChange={setPick} />
          ) : null}
          {address.data && controlled.length > 0 && (
            <ControlledDeclaration
              products={controlled}
              invoiceProfileId={invoiceProfileId}
              onChange={setDeclaration}
            />
          )}
          {address.data && (
            <section
              aria-labelledby="pago"
              className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
            >
              <h2 id="pago" className="mb-4 font-semibold text-slate-900">
                Forma de pago
              </h2>
              <PurchaseOrderField initial={quotation.data?.purchaseOrder ?? ''} onChange={onPurchaseOrder} />
              <InvoiceAtPurchase onChange={setInvoiceProfileId} />
              <PaymentChoice
                items={quoteItems}
                totalCents={data?.totalCents ?? 0}
                extra={{
                  ...(invoiceProfileId ? { invoiceProfileId } : {}),
                  ...(purchaseOrder.value.trim() ? { purchaseOrder: purchaseOrder.value } : {}),
                  ...(folio ? { quotation: folio } : {}),
                  ...(chosen ? { addressId: chosen.id } : {}),
                  ...(institutionAddressId ? { institutionAddressId } : {}),
                  ...(!folio && pick.method !== 'ground' ? { deliveryMethod: pick.method } : {}),
                  ...(!folio && pick.method === 'pickup' ? { pickupBranch: pick.branch ?? 0 } : {}),
                  ...(controlled.length > 0 && declaration ? { controlledDeclaration: declaration } : {}),
                }}
                disabled={!canPay}
                onPaid={onPaid}
                onAwaiting={onAwaiting}
              />
            </section>
          )}
        </div>
      </div>
    </>
  );
}

/** /orden — 'Compra': the server's quote, the address and the card payment (spec §2, §4). */
export function Component() {
  useDocumentTitle(shopTitle('Compra'));
  return (
    <div className="mx-auto max-w-6xl px-4 py-8">
      <RequireSignedIn>
        <Checkout />
      </RequireSignedIn>
    </div>
  );
}

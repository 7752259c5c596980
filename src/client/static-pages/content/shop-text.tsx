import { formatMoney } from '@/shared/money.ts';
import { shop } from '@/shared/shop.ts';

/** Small pieces of the shop's details used across the static pages. */
export const fullAddress = () => {
  const a = shop.address;
  return `${a.street}, ${a.neighbourhood}, C.P. ${a.postalCode}, ${a.city}, ${a.state}, ${a.country}`;
};

export const telHref = (phone: string) => `tel:+52${phone.replace(/\D/g, '')}`;

export function Mail({ to = shop.email }: { to?: string }) {
  return <a href={`mailto:${to}`}>{to}</a>;
}

/** Shipping rule from config/shop.json: base price up to baseKg, plus extraKgCents per extra kg or part. */
export const shipping = {
  base: formatMoney(shop.shipping.baseCents),
  baseKg: shop.shipping.baseKg,
  extra: formatMoney(shop.shipping.extraKgCents),
  /** The price for a parcel of kg kilograms (for the worked example). */
  priceFor: (kg: number) =>
    formatMoney(
      shop.shipping.baseCents +
        Math.max(0, Math.ceil(kg - shop.shipping.baseKg)) * shop.shipping.extraKgCents,
    ),
};

/** Last revision of the policies shown on these pages. */
export const POLICIES_UPDATED = '21 de noviembre de 2026';

import { invoicePdfUrl, invoiceXmlUrl } from '@/client/lib/invoice-urls.ts';

/**
 * 'Ver factura (PDF · XML)' of an invoiced order (issue 37, item 4): the valid CFDI's two files, straight from the
 * order card and the receipt — the invoice page is for correcting or cancelling it.
 */
export function InvoiceLinks({ number, className }: { number: number; className: string }) {
  const link = 'font-semibold text-brand-800 underline-offset-2 hover:underline';
  return (
    <span className={`${className} border-brand-200 bg-white text-slate-700`} data-testid="invoice-links">
      Ver factura (
      <a href={invoicePdfUrl(number)} download className={link}>
        PDF
      </a>
      {' · '}
      <a href={invoiceXmlUrl(number)} download className={link}>
        XML
      </a>
      )
    </span>
  );
}

/** The order's valid CFDI files (shared by the invoice page, the order history, the receipt and /resumen). */
export const invoiceXmlUrl = (number: number) => `/api/orders/${number}/invoice.xml`;
export const invoicePdfUrl = (number: number) => `/api/orders/${number}/invoice.pdf`;

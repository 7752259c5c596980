/**
 * The back-office API (/api/admin/*): the contract between src/server/admin and src/client/admin.
 * Money is integer centavos with IVA included; prices are typed by staff in pesos, with a decimal
 * point or a decimal comma ('1234.50', '1234,50', '$1,234.50').
 */

export * from './admin/back-office.ts';
export * from './admin/common.ts';
export * from './admin/controlled.ts';
export * from './admin/import.ts';
export * from './admin/orders.ts';
export * from './admin/product-safety.ts';
export * from './admin/product-sobre-pedido.ts';
export * from './admin/products.ts';

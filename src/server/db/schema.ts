// The Drizzle schema entry point: every table of every feature (drizzle-kit reads this file).
export * from './schema/accounts.ts';
export * from './schema/admin.ts';
export * from './schema/catalog.ts';
export * from './schema/controlled.ts';
export * from './schema/documents.ts';
export * from './schema/institutions.ts';
export * from './schema/invoices.ts';
export * from './schema/ledger.ts';
export * from './schema/lists.ts';
export * from './schema/mail.ts';
export * from './schema/orders.ts';
export * from './schema/quotations.ts';
export * from './schema/search.ts';
export * from './schema/shipments.ts';

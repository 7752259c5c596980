/**
 * A bad environment variable or configuration file, said in one line that names it. Its own module, below
 * config.ts and every feature's config (invoices/config.ts), so those can throw it without importing config.ts.
 */
export class ConfigError extends Error {}

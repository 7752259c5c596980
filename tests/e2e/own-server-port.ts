/**
 * The journeys that start a shop of their own (a fresh database, their own settings) and the port each listens on.
 * The workers' servers take E2E_PORT + 0 … + (workers − 1), at most 8 (playwright.config.ts); these take E2E_PORT + 8
 * and up, one each, so no two servers ever meet on a port, whichever files run side by side.
 */
const OWN_SERVERS = [
  'admin',
  'refunds',
  'returns',
  'requisitions',
  'institutions',
  'credit',
  'shipments',
] as const;
export type OwnServer = (typeof OWN_SERVERS)[number];

export const ownServerPort = (name: OwnServer): number =>
  Number(process.env.E2E_PORT ?? 3100) + 8 + OWN_SERVERS.indexOf(name);

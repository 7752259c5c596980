import raw from '../../config/shop.json' with { type: 'json' };
import type { ShopConfig } from './shop-schema.ts';

/**
 * The shop's own details (legal name, addresses, phones, branches, WhatsApp, banner, shipping rule):
 * one file, config/shop.json, bundled into the client and validated by the server at start.
 */
export const shop = raw as ShopConfig;

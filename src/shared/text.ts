/**
 * A name as a shopper may type it in an address: without accents and in any case ('/marcas/polimerica' is
 * Polimérica, '/grupos/vid' is VID). Pages compare names folded and redirect to the canonical spelling.
 */
export const foldName = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** A search term with something to search for: a letter or a digit ('..', '#', ' ' have none). */
export const searchable = (term: string) => /[\p{L}\p{N}]/u.test(term);

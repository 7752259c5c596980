/** Suggestions while typing start at this many characters (the header's box and GET /api/search/suggest). */
export const SUGGEST_MIN_LENGTH = 2;

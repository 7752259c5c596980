/**
 * The words of the proof-of-work exchange (decision 050), apart from the puzzle itself so that the browser's API
 * client, loaded on every page, carries only these and fetches the solver the first time a challenge comes.
 */

/** Response header of the 429 (`challenge;bits`) and request header of the retry (`challenge;nonce`). */
export const PROOF_HEADER = 'x-prueba-de-trabajo';
export const CHALLENGE_REQUIRED = 'challenge_required';

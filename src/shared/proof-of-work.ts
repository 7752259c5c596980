/**
 * The proof of work that stands in for a CAPTCHA when one address has failed too many sign-ins (issue 37, item 9;
 * decision 050). The server hands out a challenge with a difficulty; the browser finds a nonce such that
 * SHA-256(`${challenge}:${nonce}`) starts with that many zero bits and repeats the request with it. A person pays
 * a fraction of a second once; a script guessing from that address pays it on every try. One definition of the
 * puzzle for both sides.
 */

import { CHALLENGE_REQUIRED, PROOF_HEADER } from './proof-of-work-protocol.ts';

export { CHALLENGE_REQUIRED, PROOF_HEADER };

export function leadingZeroBits(digest: Uint8Array): number {
  let bits = 0;
  for (const byte of digest) {
    if (byte === 0) {
      bits += 8;
      continue;
    }
    return bits + Math.clz32(byte) - 24;
  }
  return bits;
}

/**
 * Finds the nonce (WebCrypto: the browser, and Node in tests). WebCrypto's digest is asynchronous, so nonces are
 * tried in parallel batches (a batch's digests run together), and the page stays responsive between batches.
 */
export async function solveChallenge(challenge: string, bits: number): Promise<string> {
  const encoder = new TextEncoder();
  const BATCH = 256;
  for (let start = 0; ; start += BATCH) {
    const digests = await Promise.all(
      Array.from({ length: BATCH }, (_, i) =>
        crypto.subtle.digest('SHA-256', encoder.encode(`${challenge}:${start + i}`)),
      ),
    );
    const found = digests.findIndex((d) => leadingZeroBits(new Uint8Array(d)) >= bits);
    if (found >= 0) return String(start + found);
  }
}

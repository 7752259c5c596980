import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * TOTP (RFC 6238 over RFC 4226's HOTP): HMAC-SHA1, 6 digits, 30-second steps — what every authenticator app
 * (Google Authenticator, Microsoft Authenticator, 1Password, Aegis) reads from an otpauth:// URI. Pure functions;
 * the rules about replays and attempts live in second-factor.ts. Decision 064.
 */

export const TOTP_STEP_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** A code of the step before or after the current one is accepted too (a clock a few seconds off, a slow typist). */
export const TOTP_WINDOW = 1;

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/** Decodes base32 (upper or lower case, spaces and padding ignored); throws on any other character. */
export function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error(`base32: carácter inválido «${char}»`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** A new shared secret: 160 random bits (RFC 4226 recommends them for HMAC-SHA1), base32. */
export const newTotpSecret = () => base32Encode(randomBytes(20));

/** RFC 4226 HOTP of one counter value, `digits` long (zero-padded). */
export function hotp(key: Buffer, counter: number, digits = TOTP_DIGITS): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', key).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** The 30-second step of an instant. */
export const totpStep = (at: Date | number = Date.now()) => Math.floor(Number(at) / 1000 / TOTP_STEP_SECONDS);

/** The code of a step for a base32 secret. */
export const totpCode = (secret: string, step: number, digits = TOTP_DIGITS) =>
  hotp(base32Decode(secret), step, digits);

/**
 * The step (current ±TOTP_WINDOW) whose code `code` is, or null. Every candidate is compared in constant time;
 * the latest matching step wins, so a replay check on it is strict.
 */
export function matchTotp(secret: string, code: string, at: Date | number = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const key = base32Decode(secret);
  const now = totpStep(at);
  let found: number | null = null;
  for (let step = now - TOTP_WINDOW; step <= now + TOTP_WINDOW; step++) {
    if (timingSafeEqual(Buffer.from(hotp(key, step)), Buffer.from(code))) found = step;
  }
  return found;
}

/** The otpauth:// URI an authenticator app reads from the QR code (Key URI Format). */
export function otpauthUri(secret: string, account: string, issuer: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const params = new URLSearchParams({
    secret,
    issuer,
    algorithm: 'SHA1',
    digits: String(TOTP_DIGITS),
    period: String(TOTP_STEP_SECONDS),
  });
  return `otpauth://totp/${label}?${params.toString()}`;
}

/** The secret in groups of four for typing by hand ('ABCD EFGH …'). */
export const groupedSecret = (secret: string) => secret.replace(/(.{4})/g, '$1 ').trim();

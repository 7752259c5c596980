import { randomInt } from 'node:crypto';
import {
  RECOVERY_ALPHABET,
  RECOVERY_CODE_LENGTH,
  VERIFICATION_CODE_LENGTH,
} from '../../shared/schemas/auth.ts';

/**
 * One-time codes sent by e-mail (recovery, registration): random from the CSPRNG, stored only as an
 * argon2 hash, valid CODE_TTL_MS, at most CODE_MAX_ATTEMPTS wrong tries each.
 */
export function generateCode(alphabet: string, length: number): string {
  let code = '';
  for (let i = 0; i < length; i++) code += alphabet[randomInt(alphabet.length)];
  return code;
}

/** 8 characters from an alphabet without look-alikes: 24^8 ≈ 1.1·10^11 codes. */
export const generateRecoveryCode = () => generateCode(RECOVERY_ALPHABET, RECOVERY_CODE_LENGTH);

/** 6 digits (typed from the registration mail, often on a phone): 10^6 codes, 5 tries each. */
export const generateVerificationCode = () => generateCode('0123456789', VERIFICATION_CODE_LENGTH);

export const RECOVERY_TTL_MS = 15 * 60 * 1000;
export const RECOVERY_MAX_ATTEMPTS = 5;
export const CODE_TTL_MS = RECOVERY_TTL_MS;
export const CODE_MAX_ATTEMPTS = RECOVERY_MAX_ATTEMPTS;

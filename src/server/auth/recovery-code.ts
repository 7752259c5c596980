import { randomInt } from 'node:crypto';
import { RECOVERY_ALPHABET, RECOVERY_CODE_LENGTH } from '../../shared/schemas/auth.ts';

/** 8 characters from an alphabet without look-alikes: 24^8 ≈ 1.1·10^11 codes. */
export function generateRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < RECOVERY_CODE_LENGTH; i++)
    code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return code;
}

export const RECOVERY_TTL_MS = 15 * 60 * 1000;
export const RECOVERY_MAX_ATTEMPTS = 5;

import { type Algorithm, hash, type Options, verify } from '@node-rs/argon2';

/** argon2id at OWASP's minimum (m = 19 MiB, t = 2, p = 1). */
export const ARGON2_OPTIONS: Options = {
  algorithm: 2 as Algorithm, // Argon2id (a const enum, not importable as a value)
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
};

export const hashPassword = (password: string) => hash(password, ARGON2_OPTIONS);

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | undefined;

/**
 * Spends the same time as a real check when there is no account, so an unknown e-mail cannot be
 * told apart by timing.
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummy ??= hashPassword('dummy-password-for-timing-1!A');
  await verifyPassword(await dummy, password);
  return false;
}

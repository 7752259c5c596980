import { randomBytes } from 'node:crypto';
import { hashToken } from './session.ts';

/**
 * A single-use link mailed to someone (an institution's invitation, decision 058; a staff invitation, decision 064):
 * 256 random bits in the URL, only their SHA-256 stored (as sessions do), valid `days`.
 */
export function newLinkToken(days: number, now = new Date()) {
  const token = randomBytes(32).toString('base64url');
  return {
    token,
    tokenHash: hashToken(token),
    expiresAt: new Date(now.getTime() + days * 24 * 60 * 60 * 1000),
  };
}

/** Where a mailed link stands: accepted, withdrawn, past its date, or still good. */
export function linkState(row: {
  acceptedAt: Date | null;
  revokedAt: Date | null;
  expiresAt: Date;
}): 'used' | 'revoked' | 'expired' | 'live' {
  if (row.acceptedAt) return 'used';
  if (row.revokedAt) return 'revoked';
  if (row.expiresAt <= new Date()) return 'expired';
  return 'live';
}

import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import { CHALLENGE_REQUIRED, leadingZeroBits, PROOF_HEADER } from '../../shared/proof-of-work.ts';
import type { Db } from '../db/client.ts';
import { authAttempts } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';

/**
 * Fair throttling of sign-in, recovery and registration (issue 16, OWASP authentication guidance).
 * Failures are rows in auth_attempts (so the limits hold across instances) under three keys:
 *  - the account and the address together ("pair"): after a few failures each further try waits
 *    longer (2 s, 4 s, 8 s … up to 15 min) — one address guessing one account is slowed to a crawl;
 *  - the account from anywhere: a later and gentler delay (after 10 failures, 1 s … at most 1 min) —
 *    guessing from many addresses is slowed, yet a stranger's wrong passwords never lock the owner
 *    out: the owner waits at most a minute, never a fixed 15-minute lock the attacker controls;
 *  - the address alone: past a much higher threshold (100 failures in 15 min) nobody is refused: each request
 *    from that address must first solve a proof of work that grows with the failures (checkAddress, decision
 *    050). A refusal by address let strangers lock a whole campus out — the owner's correct password got 429
 *    after 105 made-up sign-ins from the same network (issue 37) — so the address only ever slows its requests.
 * Only failures count (a successful sign-in clears its account's counters), and a try refused while
 * waiting is not counted either. Recovery-code requests count every request (each sends a mail).
 * The answer is 429 in Spanish with the wait and a Retry-After header.
 */

export const WINDOW_MS = 15 * 60 * 1000;

export type ThrottleKind = 'login' | 'recovery' | 'recovery-request' | 'register' | 'second-factor';

type Delay = { free: number; baseMs: number; capMs: number };
/** `addressFree`: failures from one address before its requests must carry a proof of work. */
type Policy = { pair?: Delay; account?: Delay; addressFree: number };

export const POLICIES: Record<ThrottleKind, Policy> = {
  login: {
    pair: { free: 5, baseMs: 2_000, capMs: WINDOW_MS },
    account: { free: 10, baseMs: 1_000, capMs: 60_000 },
    addressFree: 100,
  },
  // Wrong recovery codes: stricter per account (the owner rarely needs more than a couple of tries, and
  // each code dies after 5 wrong ones anyway).
  recovery: {
    pair: { free: 5, baseMs: 2_000, capMs: WINDOW_MS },
    account: { free: 5, baseMs: 2_000, capMs: 5 * 60_000 },
    addressFree: 100,
  },
  // Staff's second factor (decision 064): the password is already known to whoever gets here, so wrong codes are
  // braked like wrong recovery codes — a million 6-digit codes cannot be walked through.
  'second-factor': {
    pair: { free: 5, baseMs: 2_000, capMs: WINDOW_MS },
    account: { free: 5, baseMs: 2_000, capMs: 5 * 60_000 },
    addressFree: 100,
  },
  'recovery-request': {
    account: { free: 3, baseMs: 30_000, capMs: WINDOW_MS },
    addressFree: 100,
  },
  // Every registration request mails a code (or a notice to the account's owner): the same brake per e-mail
  // address as recovery-code requests, so nobody can flood a stranger's mailbox (issue 37).
  register: {
    account: { free: 3, baseMs: 30_000, capMs: WINDOW_MS },
    addressFree: 100,
  },
};

/** At most this many failures fit in one window under a delay rule (each waits its delay first). */
export function failuresPerWindow(rule: Delay): number {
  let n = 0;
  for (let elapsed = 0; elapsed <= WINDOW_MS; n++) elapsed += delayAfter(rule, n);
  return n;
}

/** Wait after `failures` failures under a delay rule (0 while within the free ones). */
export function delayAfter(rule: Delay, failures: number): number {
  if (failures < rule.free) return 0;
  return Math.min(rule.capMs, rule.baseMs * 2 ** (failures - rule.free));
}

export const accountKey = (email: string) => `acct:${email.toLowerCase()}`;
export const ipKey = (ip: string) => `ip:${ip}`;
export const pairKey = (email: string, ip: string) => `pair:${email.toLowerCase()}|${ip}`;

/** `proof`: the retry's `challenge;nonce` header, when the browser solved a proof of work. */
export type ThrottleSubject = { email?: string | undefined; ip: string; proof?: string | undefined };

const keysOf = (policy: Policy, who: ThrottleSubject) => ({
  ip: ipKey(who.ip),
  ...(who.email && policy.pair ? { pair: pairKey(who.email, who.ip) } : {}),
  ...(who.email && policy.account ? { account: accountKey(who.email) } : {}),
});

/** "3 segundos", "1 minuto", "15 minutos". */
export function waitText(seconds: number): string {
  if (seconds < 60) return seconds === 1 ? '1 segundo' : `${seconds} segundos`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? '1 minuto' : `${minutes} minutos`;
}

export const tooManyAttempts = (retryAfterSeconds: number) =>
  new AppError(
    429,
    'too_many_requests',
    `Demasiados intentos. Espere ${waitText(retryAfterSeconds)} y vuelva a intentarlo.`,
    undefined,
    { 'Retry-After': String(retryAfterSeconds) },
  );

/** Throws 429 (with the wait) when the account, or the account from this address, must still wait. */
export async function assertNotThrottled(db: Db, kind: ThrottleKind, who: ThrottleSubject) {
  const policy = POLICIES[kind];
  const keys = keysOf(policy, who);
  const now = Date.now();
  const rows = await db
    .select({
      key: authAttempts.key,
      n: sql<number>`count(*)::int`,
      last: sql<string>`max(${authAttempts.createdAt})`,
    })
    .from(authAttempts)
    .where(
      and(
        eq(authAttempts.kind, kind),
        inArray(authAttempts.key, Object.values(keys)),
        gt(authAttempts.createdAt, new Date(now - WINDOW_MS)),
      ),
    )
    .groupBy(authAttempts.key);
  let waitMs = 0;
  for (const row of rows) {
    const last = new Date(row.last).getTime();
    if (row.key === keys.pair && policy.pair) {
      waitMs = Math.max(waitMs, last + delayAfter(policy.pair, row.n) - now);
    }
    if (row.key === keys.account && policy.account) {
      waitMs = Math.max(waitMs, last + delayAfter(policy.account, row.n) - now);
    }
  }
  if (waitMs > 0) throw tooManyAttempts(Math.max(1, Math.ceil(waitMs / 1000)));
}

/** Counts one failure (or, for recovery-code requests, one request) against every key. */
export async function recordFailure(db: Db, kind: ThrottleKind, who: ThrottleSubject) {
  const keys = Object.values(keysOf(POLICIES[kind], who));
  await db.insert(authAttempts).values(keys.map((key) => ({ kind, key })));
}

/** Zero bits asked of a proof after `failures` from one address: none below the threshold, then growing. */
export function challengeBits(policy: Policy, failures: number): number {
  if (failures < policy.addressFree) return 0;
  return Math.min(MAX_CHALLENGE_BITS, 12 + 2 * Math.floor(Math.log2(failures / policy.addressFree)));
}
/**
 * ≈ 2^16 hashes: well under a second in a desktop browser, a second or two on a mid-range phone — the most an honest
 * person is asked to wait. (18 bits took minutes for 17 sign-ins in a row on a loaded machine: too much for a
 * campus whose neighbours mistype.)
 */
const MAX_CHALLENGE_BITS = 16;
const CHALLENGE_TTL_MS = 5 * 60 * 1000;
const challengeKey = (ip: string, challenge: string) => `challenge:${ip}|${challenge}`;

/**
 * The address's brake: below its threshold, nothing. Past it, the request passes only with a solved proof of a
 * challenge this address was given (single use: claimed by one DELETE, so racing retries cannot share one);
 * otherwise a new challenge is issued in a 429 `challenge_required` whose header the browser solves and retries
 * with. Never a wait: a correct password from that address always gets in, at the price of the proof.
 */
export async function checkAddress(db: Db, kind: ThrottleKind, who: ThrottleSubject) {
  const policy = POLICIES[kind];
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(authAttempts)
    .where(
      and(
        eq(authAttempts.kind, kind),
        eq(authAttempts.key, ipKey(who.ip)),
        gt(authAttempts.createdAt, new Date(Date.now() - WINDOW_MS)),
      ),
    );
  const bits = challengeBits(policy, Number(row?.n ?? 0));
  if (bits === 0) return;
  const [challenge, nonce] = (who.proof ?? '').split(';');
  if (challenge && nonce !== undefined && /^[0-9a-f]{32}\.\d{1,2}$/.test(challenge)) {
    const claimed = await db
      .delete(authAttempts)
      .where(
        and(
          eq(authAttempts.kind, 'challenge'),
          eq(authAttempts.key, challengeKey(who.ip, challenge)),
          gt(authAttempts.createdAt, new Date(Date.now() - CHALLENGE_TTL_MS)),
        ),
      )
      .returning({ id: authAttempts.id });
    const issuedBits = Number(challenge.split('.')[1]);
    const digest = createHash('sha256').update(`${challenge}:${nonce}`).digest();
    if (claimed.length > 0 && leadingZeroBits(digest) >= issuedBits) return;
  }
  const fresh = `${randomBytes(16).toString('hex')}.${bits}`;
  await db.insert(authAttempts).values({ kind: 'challenge', key: challengeKey(who.ip, fresh) });
  throw new AppError(
    429,
    CHALLENGE_REQUIRED,
    'Hubo muchos intentos fallidos desde su red. Estamos verificando su navegador; vuelva a intentarlo.',
    undefined,
    { [PROOF_HEADER]: `${fresh};${bits}` },
  );
}

/**
 * For the kinds where every request counts (each sends a mail): the check and the count in one step, serialized
 * per key by a transaction-scoped advisory lock, so requests racing in parallel cannot all pass a check made
 * before any of them was counted (15 registrations in one second to one mailbox, issue 37). A refused request
 * is not counted.
 */
export async function countRequest(db: Db, kind: 'recovery-request' | 'register', who: ThrottleSubject) {
  // The address's proof is claimed outside the transaction: a challenge issued inside it would roll back with the 429.
  await checkAddress(db, kind, who);
  const keys = Object.values(keysOf(POLICIES[kind], who)).sort();
  await db.transaction(async (tx) => {
    for (const key of keys)
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`${kind}|${key}`}))`);
    await assertNotThrottled(tx, kind, who);
    await recordFailure(tx, kind, who);
  });
}

/** A success clears the account's counters (from every address); the address's own stays. */
export async function clearFailures(db: Db, kind: ThrottleKind, email: string) {
  await db
    .delete(authAttempts)
    .where(
      and(
        eq(authAttempts.kind, kind),
        sql`(${authAttempts.key} = ${accountKey(email)} or ${authAttempts.key} like ${`pair:${email.toLowerCase().replace(/[\\%_]/g, '\\$&')}|%`})`,
      ),
    );
}

export async function purgeOldAttempts(db: Db) {
  await db.delete(authAttempts).where(lt(authAttempts.createdAt, new Date(Date.now() - 24 * 60 * 60 * 1000)));
}

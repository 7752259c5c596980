import { CHALLENGE_REQUIRED, PROOF_HEADER } from '@/shared/proof-of-work-protocol.ts';
import type { ErrorEnvelope } from '@/shared/schemas/errors.ts';

/** An API failure with the server's Spanish message (or 'Error de conexión' when the network failed). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
  }
}

type Options = {
  method?: string;
  body?: unknown;
  timeoutMs?: number;
  signal?: AbortSignal;
  headers?: Record<string, string>;
};

/** fetch + JSON with a timeout; errors become ApiError with the server's message. */
export async function apiFetch<T>(path: string, options: Options = {}): Promise<T> {
  const { method = 'GET', body, timeoutMs = 10_000, signal, headers = {} } = options;
  const timeout = AbortSignal.timeout(timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: {
        Accept: 'application/json',
        ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        ...headers,
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
      signal: combined,
    });
  } catch {
    throw new ApiError(0, 'network', 'Error de conexión');
  }
  // The timeout (and the caller's signal) also cover reading the body: on a slow phone the headers may
  // arrive in time and the body not. A body cut off like that is a connection failure (retried by the
  // queries), never an empty answer: read as null, a 200 became `data: null` and the page crashed.
  let text: string;
  try {
    text = await response.text();
  } catch {
    throw new ApiError(0, 'network', 'Error de conexión');
  }
  // A failed answer carries the server's error envelope; a body that is not JSON (a proxy's page) reads as null.
  let data: Partial<ErrorEnvelope> | null = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  // Many failed sign-ins from this network (decision 050): the server asks for a proof of work instead of refusing.
  // Solved here once and the request repeated, so the person never sees it; a second ask is shown as an error.
  const challenge = response.headers.get(PROOF_HEADER);
  if (
    response.status === 429 &&
    data?.error?.code === CHALLENGE_REQUIRED &&
    challenge &&
    !headers[PROOF_HEADER]
  ) {
    const [token = '', bits = '0'] = challenge.split(';');
    const { solveChallenge } = await import('@/shared/proof-of-work.ts');
    const nonce = await solveChallenge(token, Number(bits));
    return apiFetch<T>(path, { ...options, headers: { ...headers, [PROOF_HEADER]: `${token};${nonce}` } });
  }
  if (!response.ok) {
    throw new ApiError(
      response.status,
      data?.error?.code ?? 'http',
      data?.error?.message ?? 'Error de conexión',
      data?.error?.fields,
    );
  }
  return data as T;
}

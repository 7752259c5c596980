import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiFetch } from './api-client.ts';

/** A 200 whose body fails while it is read, as when the timeout fires between the headers and the body. */
const cutOff = () =>
  new Response(
    new ReadableStream({
      start(controller) {
        controller.error(new DOMException('signal timed out', 'TimeoutError'));
      },
    }),
    { status: 200, headers: { 'Content-Type': 'application/json' } },
  );

describe('apiFetch', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('returns the JSON of a 200', async () => {
    vi.stubGlobal('fetch', async () => Response.json({ total: 3 }));
    await expect(apiFetch('/api/products')).resolves.toEqual({ total: 3 });
  });

  it('turns a 200 whose body never arrives into "Error de conexión", not into null data', async () => {
    vi.stubGlobal('fetch', async () => cutOff());
    const error = await apiFetch('/api/products').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 0, code: 'network', message: 'Error de conexión' });
  });

  it("keeps the server's Spanish message of a 4xx", async () => {
    vi.stubGlobal('fetch', async () =>
      Response.json({ error: { code: 'not_found', message: 'Producto no encontrado' } }, { status: 404 }),
    );
    await expect(apiFetch('/api/products/X')).rejects.toMatchObject({
      status: 404,
      message: 'Producto no encontrado',
    });
  });

  it('solves the proof of work a busy network is asked for and repeats the sign-in once, unseen', async () => {
    const sent: (string | null)[] = [];
    vi.stubGlobal('fetch', async (_path: string, init: RequestInit) => {
      const proof = new Headers(init.headers).get('x-prueba-de-trabajo');
      sent.push(proof);
      if (!proof) {
        return Response.json(
          { error: { code: 'challenge_required', message: 'Hubo muchos intentos fallidos desde su red.' } },
          { status: 429, headers: { 'x-prueba-de-trabajo': `${'a'.repeat(32)}.8;8` } },
        );
      }
      return Response.json({ message: 'Sesión iniciada' });
    });
    await expect(apiFetch('/api/auth/login', { method: 'POST', body: {} })).resolves.toEqual({
      message: 'Sesión iniciada',
    });
    expect(sent).toHaveLength(2);
    const [token, nonce] = sent[1]!.split(';');
    expect(token).toBe(`${'a'.repeat(32)}.8`);
    const digest = new Uint8Array(
      await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`${token}:${nonce}`)),
    );
    expect(digest[0]).toBe(0);
  });
});

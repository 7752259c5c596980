import { type APIRequestContext, type APIResponse, expect } from '@playwright/test';

/**
 * Registration as a shopper does it (issue 23): the form, then the 6-digit code from the mail, read
 * from the development mailbox (/dev/correo.json, which answers this machine). Resolves with the
 * confirmation's response, whose session cookie the request context (and its page) now carries.
 */
export async function registerThroughApi(
  request: APIRequestContext,
  data: Record<string, unknown>,
): Promise<APIResponse> {
  const first = await request.post('/api/auth/register', { data });
  if (!first.ok()) return first;
  const code = await mailedRegistrationCode(request, String(data.username));
  return request.post('/api/auth/register/verify', { data: { username: data.username, code } });
}

/** The newest registration code sent to `to`, from /dev/correo.json. */
export async function mailedRegistrationCode(request: APIRequestContext, to: string): Promise<string> {
  const address = to.trim().toLowerCase();
  let code: string | undefined;
  await expect
    .poll(
      async () => {
        const res = await request.get('/dev/correo.json');
        const { mails } = (await res.json()) as { mails: { kind: string; to: string; subject: string }[] };
        code = mails
          .find((m) => m.kind === 'register-code' && m.to.toLowerCase() === address)
          ?.subject.match(/(\d{6})$/)?.[1];
        return code;
      },
      { message: `código de verificación para ${address} en /dev/correo` },
    )
    .toBeTruthy();
  return code!;
}

/**
 * A signed-in buyer ready for checkout: registered through the API (registerThroughApi) and with the shipping
 * address saved as their default, both checked. The request context (and its page) carries the session.
 */
export async function registerBuyerWithAddress(
  request: APIRequestContext,
  person: Record<string, unknown>,
  address: Record<string, unknown>,
): Promise<void> {
  const registered = await registerThroughApi(request, person);
  expect(registered.ok(), await registered.text()).toBe(true);
  const saved = await request.put('/api/account/shipping-address', { data: address });
  expect(saved.ok(), await saved.text()).toBe(true);
}

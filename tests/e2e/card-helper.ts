import { type APIRequestContext, expect } from '@playwright/test';

/**
 * A card token from the sandbox gateway, as Openpay.js would give the browser (4111…: approved; other test cards
 * decline). Expires two years from now. Resolves with the token's id.
 */
export async function sandboxCardToken(
  request: APIRequestContext,
  holderName: string,
  cardNumber = '4111111111111111',
): Promise<string> {
  const token = await request.post('/api/payments/sandbox/tokens', {
    data: {
      holder_name: holderName,
      card_number: cardNumber,
      expiration_month: '12',
      expiration_year: String((new Date().getFullYear() + 2) % 100),
      cvv2: '123',
    },
  });
  expect(token.status(), await token.text()).toBe(201);
  return ((await token.json()) as { id: string }).id;
}

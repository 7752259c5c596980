import { ApiError, apiFetch } from '@/client/lib/api-client.ts';
import type { CardForm, PaymentsConfig } from '@/shared/schemas/payments.ts';

/** A card the gateway would not tokenize; `message` is ready for the shopper. */
export class CardTokenError extends Error {}

/** Spec §8: a card token error reads 'Tarjeta declinada'; Openpay's code says why. */
function tokenErrorMessage(code: number | null | undefined): string {
  switch (code) {
    case 2004:
      return 'Tarjeta declinada: el número de tarjeta no es válido';
    case 2005:
      return 'Tarjeta declinada: la tarjeta ha expirado';
    case 2006:
    case 2009:
      return 'Tarjeta declinada: el código de seguridad no es válido';
    case 1001:
      return 'Tarjeta declinada: revise los datos de la tarjeta';
    default:
      return 'Tarjeta declinada';
  }
}

type OpenPayJs = {
  setId(id: string): void;
  setApiKey(key: string): void;
  setSandboxMode(on: boolean): void;
  deviceData: { setup(formId: string, fieldName?: string): string };
  token: {
    create(
      card: Record<string, string>,
      ok: (r: { data: { id: string } }) => void,
      fail: (r: { data?: { error_code?: number; description?: string } }) => void,
    ): void;
  };
};

const loaded = new Map<string, Promise<void>>();
function loadScript(src: string): Promise<void> {
  let p = loaded.get(src);
  if (!p) {
    p = new Promise<void>((resolve, reject) => {
      const s = document.createElement('script');
      s.src = src;
      s.async = true;
      s.onload = () => resolve();
      s.onerror = () => {
        loaded.delete(src);
        reject(new CardTokenError('Tarjeta declinada: no se pudo contactar al procesador de pagos'));
      };
      document.head.append(s);
    });
    loaded.set(src, p);
  }
  return p;
}

/** Openpay.js and openpay-data.js load only when the Openpay gateway is configured. */
async function openpay(config: PaymentsConfig): Promise<OpenPayJs> {
  await loadScript('https://js.openpay.mx/openpay.v1.min.js');
  await loadScript('https://js.openpay.mx/openpay-data.v1.min.js');
  const op = (window as unknown as { OpenPay: OpenPayJs }).OpenPay;
  op.setId(config.merchantId ?? '');
  op.setApiKey(config.publicKey ?? '');
  op.setSandboxMode(Boolean(config.sandboxMode));
  return op;
}

function randomSessionId(): string {
  return crypto.randomUUID().replace(/-/g, '');
}

/**
 * The card never reaches our server: the gateway (Openpay.js, or the sandbox's tokenization endpoint)
 * turns it into a single-use token, and the device session id feeds the anti-fraud checks.
 */
export async function createCardToken(
  config: PaymentsConfig,
  formId: string,
  card: CardForm,
): Promise<{ token: string; deviceSessionId: string }> {
  if (config.gateway === 'openpay') {
    const op = await openpay(config);
    const deviceSessionId = op.deviceData.setup(formId, 'deviceIdHiddenFieldName');
    const token = await new Promise<string>((resolve, reject) =>
      op.token.create(
        { ...card },
        (r) => resolve(r.data.id),
        (e) => reject(new CardTokenError(tokenErrorMessage(e.data?.error_code))),
      ),
    );
    return { token, deviceSessionId };
  }
  try {
    const { id } = await apiFetch<{ id: string }>('/api/payments/sandbox/tokens', {
      method: 'POST',
      body: card,
    });
    return { token: id, deviceSessionId: randomSessionId() };
  } catch (error) {
    if (error instanceof ApiError && error.status !== 0) {
      const code = Number(error.code.replace('openpay_', ''));
      throw new CardTokenError(tokenErrorMessage(Number.isFinite(code) ? code : null));
    }
    throw new CardTokenError(
      'Error de red al enviar los datos de la tarjeta. Revise su conexión e intente de nuevo.',
    );
  }
}

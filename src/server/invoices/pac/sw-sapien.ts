import type { Csd } from '../csd.ts';
import { querySatStatus, SAT_STATUS_PRODUCTION, SAT_STATUS_TEST } from './sat-status.ts';
import { type CancelRequest, type CancelResult, type Pac, PacError, type Stamp } from './types.ts';

/**
 * SW sapien (SmarterWeb, RFC LSO1306189R5) REST API, as its SDKs call it:
 *   POST /security/authenticate            headers user, password → { data: { token, expires_in } }
 *   POST /v4/cfdi33/stamp/v4               multipart "xml" (sealed CFDI) → { data: { cfdi, uuid, fechaTimbrado, selloSAT, noCertificadoSAT, … } }
 *   POST /cfdi33/cancel/csd                JSON { uuid, password, rfc, motivo, b64Cer, b64Key } → { data: { acuse, uuid: { <uuid>: "201" } } }
 * Every answer is { status: 'success' | 'error', message?, messageDetail? }.
 * Test environment: https://services.test.sw.com.mx; production: https://services.sw.com.mx.
 */
export type SwSapienOptions = {
  url: string;
  user?: string | undefined;
  password?: string | undefined;
  token?: string | undefined;
  /** The issuer's CSD: SW's cancel-by-CSD call signs the cancellation with it. */
  csd: Pick<Csd, 'certificateDerBase64' | 'privateKeyDerBase64' | 'password'>;
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** SAT's ConsultaCFDIService; by default SAT's test service for SW's test environment, else production. */
  satStatusUrl?: string | undefined;
};

type SwAnswer<T> = { status?: string; message?: string; messageDetail?: string; data?: T };

const UNREACHABLE =
  'No fue posible comunicarse con el servicio de timbrado; intente de nuevo en unos minutos';

export class SwSapienPac implements Pac {
  readonly name = 'sw' as const;
  private cachedToken: { value: string; until: number } | undefined;

  constructor(private readonly options: SwSapienOptions) {}

  private get fetch() {
    return this.options.fetch ?? fetch;
  }

  /** Test environment stamps are not fiscally valid. */
  private get isTestEnvironment() {
    return !/^https:\/\/services\.sw\.com\.mx$/.test(this.options.url);
  }

  private async call<T>(
    path: string,
    init: RequestInit,
    what: string,
    /** Accept this error answer's data (SW's 307 "timbre previo" carries the stamp already made). */
    acceptError?: (message: string) => boolean,
  ): Promise<T> {
    let response: Response;
    try {
      response = await this.fetch(`${this.options.url}${path}`, {
        ...init,
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000),
      });
    } catch (error) {
      throw new PacError(
        UNREACHABLE,
        `${what}: ${error instanceof Error ? error.message : String(error)}`,
        true,
      );
    }
    const body = (await response.json().catch(() => null)) as SwAnswer<T> | null;
    if (response.ok && body?.status === 'success' && body.data !== undefined) return body.data;
    if (body?.data && acceptError?.(body.message ?? '')) return body.data;
    const detail =
      `${what}: HTTP ${response.status} ${body?.message ?? ''} ${body?.messageDetail ?? ''}`.trim();
    if (response.status >= 500 || body === null) throw new PacError(UNREACHABLE, detail, true);
    if (response.status === 401 || response.status === 403) {
      this.cachedToken = undefined;
      throw new PacError('El servicio de timbrado rechazó las credenciales de la tienda', detail, true);
    }
    throw new PacError(`El PAC rechazó la solicitud: ${body.message ?? 'error desconocido'}`, detail);
  }

  private async bearer(): Promise<string> {
    if (this.options.token) return this.options.token;
    if (this.cachedToken && this.cachedToken.until > Date.now()) return this.cachedToken.value;
    const data = await this.call<{ token: string; expires_in?: number }>(
      '/security/authenticate',
      {
        method: 'POST',
        headers: { user: this.options.user ?? '', password: this.options.password ?? '' },
      },
      'autenticación',
    );
    // expires_in is an epoch (seconds) in SW's answers; keep a 5-minute margin either way.
    const exp = data.expires_in ?? 0;
    const until = exp > 1e9 ? exp * 1000 : Date.now() + Math.max(exp, 600) * 1000;
    this.cachedToken = { value: data.token, until: until - 5 * 60_000 };
    return data.token;
  }

  async stamp(sealedXml: string): Promise<Stamp> {
    const form = new FormData();
    form.append('xml', new Blob([sealedXml], { type: 'text/xml' }), 'xml');
    const data = await this.call<{
      cfdi: string;
      uuid: string;
      fechaTimbrado: string;
      selloSAT: string;
      noCertificadoSAT: string;
    }>(
      '/v4/cfdi33/stamp/v4',
      { method: 'POST', headers: { Authorization: `Bearer ${await this.bearer()}` }, body: form },
      'timbrado',
      // 307: this very CFDI was stamped before (a retry after a crash): SW answers that stamp again.
      (message) => /^\s*(CFDI\d*)?307\b/.test(message),
    );
    if (!data.cfdi || !data.uuid)
      throw new PacError('El PAC no devolvió el comprobante timbrado', 'timbrado: sin cfdi');
    return {
      xml: data.cfdi,
      uuid: data.uuid.toUpperCase(),
      stampedAt: data.fechaTimbrado,
      satCertificateNumber: data.noCertificadoSAT,
      satSeal: data.selloSAT,
      rfcProvCertif: 'LSO1306189R5',
      test: this.isTestEnvironment,
    };
  }

  async cancel(request: CancelRequest): Promise<CancelResult> {
    const data = await this.call<{ acuse?: string; uuid?: Record<string, string> }>(
      '/cfdi33/cancel/csd',
      {
        method: 'POST',
        headers: { Authorization: `Bearer ${await this.bearer()}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          uuid: request.uuid,
          password: this.options.csd.password,
          rfc: request.issuerRfc,
          motivo: request.motivo,
          ...(request.folioSustitucion ? { foliosustitucion: request.folioSustitucion } : {}),
          b64Cer: this.options.csd.certificateDerBase64,
          b64Key: this.options.csd.privateKeyDerBase64,
        }),
      },
      'cancelación',
    );
    const code =
      data.uuid?.[request.uuid] ??
      data.uuid?.[request.uuid.toLowerCase()] ??
      Object.values(data.uuid ?? {})[0];
    // 201: solicitud de cancelación recibida; 202: ya estaba cancelado. Anything else is a refusal.
    if (code !== '201' && code !== '202') {
      throw new PacError(
        'El SAT no aceptó la cancelación de la factura',
        `cancelación: código ${code ?? '—'}`,
      );
    }
    // SAT answers "en proceso" in the acuse when the receptor must accept.
    const pending = /en\s+proceso/i.test(data.acuse ?? '');
    return { status: pending ? 'pending' : 'cancelled', acknowledgement: data.acuse ?? null };
  }

  /**
   * Follow-up of a cancellation 'en proceso': SAT's status service (ConsultaCFDIService) says where it stands —
   * Estado 'Cancelado' → cancelled; EstatusCancelacion 'Solicitud rechazada' → rejected by the receptor (the
   * CFDI stays valid); 'En proceso' → still pending. When that service cannot tell (unreachable, not found yet),
   * the cancellation is asked of SW again as before: 202 once accepted, "en proceso" while it waits.
   */
  async cancellationStatus(request: CancelRequest): Promise<CancelResult> {
    const url =
      this.options.satStatusUrl ?? (this.isTestEnvironment ? SAT_STATUS_TEST : SAT_STATUS_PRODUCTION);
    const sat = await querySatStatus(url, request, {
      fetch: this.fetch,
      timeoutMs: this.options.timeoutMs ?? 30_000,
    }).catch(() => null);
    if (sat?.estado === 'Cancelado') return { status: 'cancelled', acknowledgement: null };
    if (sat?.estatusCancelacion === 'Solicitud rechazada')
      return { status: 'rejected', acknowledgement: null };
    if (sat?.estatusCancelacion === 'En proceso') return { status: 'pending', acknowledgement: null };
    return this.cancel(request);
  }
}

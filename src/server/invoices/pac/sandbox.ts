import { createHash, randomUUID } from 'node:crypto';
import { mexicoDateTime } from '../cfdi.ts';
import type { Csd } from '../csd.ts';
import { insertComplemento, readAttribute, tfdCadenaOriginal, tfdXml } from './tfd.ts';
import { type CancelRequest, type CancelResult, type Pac, PacError, type Stamp } from './types.ts';

/** The RFC SAT's test stamps carry as PAC (the "SAT pruebas" provider). */
export const SANDBOX_RFC_PROV_CERTIF = 'SPR190613I52';
/** Twenty zeros: no SAT certificate ever has this number, so the stamp is visibly a test. */
export const SANDBOX_SAT_CERTIFICATE_NUMBER = '00000000000000000000';
export const SANDBOX_LEYENDA = 'Timbre de prueba sin validez fiscal';

/**
 * Where the sandbox keeps what it stamped, so that a repeated stamp of the same sealed CFDI answers the same
 * stamp — also after the shop's process died (the app uses a table; tests and scripts, memory).
 */
export type SandboxStampStore = {
  get(key: string): Promise<Stamp | undefined>;
  /** Keeps the first stamp stored under `key` and answers it (a concurrent put may have won). */
  put(key: string, stamp: Stamp): Promise<Stamp>;
};

export function memoryStampStore(): SandboxStampStore {
  const stamps = new Map<string, Stamp>();
  return {
    get: async (key) => stamps.get(key),
    put: async (key, stamp) => {
      const kept = stamps.get(key) ?? stamp;
      stamps.set(key, kept);
      return kept;
    },
  };
}

/** A sealed CFDI's identity for the sandbox: its bytes (Serie, Folio and Sello included). */
export const sealedKey = (sealedXml: string) => createHash('sha256').update(sealedXml, 'utf8').digest('hex');

/**
 * The built-in PAC for development and tests: it checks what a PAC checks first (a sealed CFDI 4.0),
 * then adds a TimbreFiscalDigital 1.1 with a fresh UUID (the same one again for the same sealed CFDI). SelloSAT is a real RSA-SHA256 signature of
 * the TFD's cadena original, made with the sandbox's own test key, and the stamp says it is a test
 * (Leyenda, NoCertificadoSAT of zeros). Cancellations are accepted at once.
 */
export class SandboxPac implements Pac {
  readonly name = 'sandbox' as const;

  constructor(
    private readonly signer: Pick<Csd, 'sign'>,
    private readonly now: () => Date = () => new Date(),
    private readonly store: SandboxStampStore = memoryStampStore(),
  ) {}

  async stamp(sealedXml: string): Promise<Stamp> {
    // Already stamped: the same answer as the first time (a real PAC's "previamente timbrado").
    const key = sealedKey(sealedXml);
    const previous = await this.store.get(key);
    if (previous) return previous;
    if (readAttribute(sealedXml, 'cfdi:Comprobante', 'Version') !== '4.0') {
      throw new PacError('El PAC rechazó el comprobante: no es un CFDI 4.0', 'CFDI40101');
    }
    const selloCfd = readAttribute(sealedXml, 'cfdi:Comprobante', 'Sello');
    if (!selloCfd) throw new PacError('El PAC rechazó el comprobante: no está sellado', 'CFDI40102');
    if (sealedXml.includes('TimbreFiscalDigital')) {
      throw new PacError('El PAC rechazó el comprobante: ya está timbrado', '307');
    }
    const base = {
      uuid: randomUUID().toUpperCase(),
      fechaTimbrado: mexicoDateTime(this.now()),
      rfcProvCertif: SANDBOX_RFC_PROV_CERTIF,
      leyenda: SANDBOX_LEYENDA,
      selloCfd,
      noCertificadoSat: SANDBOX_SAT_CERTIFICATE_NUMBER,
    };
    const selloSat = this.signer.sign(tfdCadenaOriginal(base));
    const xml = insertComplemento(sealedXml, tfdXml({ ...base, selloSat }));
    return this.store.put(key, {
      xml,
      uuid: base.uuid,
      stampedAt: base.fechaTimbrado,
      satCertificateNumber: base.noCertificadoSat,
      satSeal: selloSat,
      rfcProvCertif: base.rfcProvCertif,
      test: true,
    });
  }

  /**
   * SAT's rule, simulated: without the receptor's acceptance when the total is at most $1,000 or within the
   * business day after the issue (here: 24 hours) or for motivo 04; otherwise 'en proceso' until the receptor
   * answers (`receptorAnswer`, default: accepts at the first follow-up).
   */
  async cancel(request: CancelRequest): Promise<CancelResult> {
    const fecha = mexicoDateTime(this.now());
    const acknowledgement = `<Acuse Fecha="${fecha}" RfcEmisor="${request.issuerRfc}" Prueba="true"><Folios><UUID>${request.uuid}</UUID><EstatusUUID>201</EstatusUUID><Motivo>${request.motivo}</Motivo>${request.folioSustitucion ? `<FolioSustitucion>${request.folioSustitucion}</FolioSustitucion>` : ''}</Folios></Acuse>`;
    if (request.motivo === '01' && !request.folioSustitucion) {
      throw new PacError(
        'El SAT rechazó la cancelación: el motivo 01 requiere el folio de sustitución',
        'CA306',
      );
    }
    const old = request.issuedAt
      ? this.now().getTime() - request.issuedAt.getTime() > 24 * 60 * 60 * 1000
      : false;
    const needsAcceptance = request.totalCents > 100_000 && old && request.motivo !== '04';
    if (!needsAcceptance) return { status: 'cancelled', acknowledgement };
    this.pendingCancellations.add(request.uuid);
    return { status: 'pending', acknowledgement };
  }

  async cancellationStatus(request: CancelRequest): Promise<CancelResult> {
    if (!this.pendingCancellations.has(request.uuid)) return { status: 'cancelled', acknowledgement: null };
    const answer = this.receptorAnswer(request.uuid);
    if (answer === 'wait') return { status: 'pending', acknowledgement: null };
    this.pendingCancellations.delete(request.uuid);
    return { status: answer === 'accept' ? 'cancelled' : 'rejected', acknowledgement: null };
  }

  private readonly pendingCancellations = new Set<string>();
  /** What the receptor of a cancellation 'en proceso' answers at the next follow-up (tests set it). */
  receptorAnswer: (uuid: string) => 'accept' | 'reject' | 'wait' = () => 'accept';
}

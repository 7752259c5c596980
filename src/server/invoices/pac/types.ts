import type { CancelMotivo } from '../../../shared/sat-motivos.ts';
/**
 * A PAC (Proveedor Autorizado de Certificación) stamps a sealed CFDI with the Timbre Fiscal Digital
 * and cancels stamped CFDIs before the SAT. Every PAC sits behind this interface.
 */

export type Stamp = {
  /** The stamped CFDI exactly as the PAC returned it. */
  xml: string;
  uuid: string;
  /** FechaTimbrado as written in the TFD (AAAA-MM-DDThh:mm:ss, Mexico City time). */
  stampedAt: string;
  satCertificateNumber: string;
  satSeal: string;
  rfcProvCertif: string;
  /** True when the stamp has no fiscal validity (sandbox PAC, PAC test environments). */
  test: boolean;
};

export type CancelRequest = {
  uuid: string;
  issuerRfc: string;
  receiverRfc: string;
  totalCents: number;
  motivo: CancelMotivo;
  /** Motivo 01 only: the UUID of the CFDI that replaces this one. */
  folioSustitucion?: string | undefined;
  /** When the CFDI was stamped: SAT asks the receptor's acceptance for > $1,000 after the next business day. */
  issuedAt?: Date | undefined;
};

export type CancelResult = {
  /**
   * 'cancelled' at once; 'pending' ("en proceso") when the receptor must accept (SAT: total over $1,000 and
   * after the business day following the issue; the receptor has 3 business days to answer); 'rejected' when
   * the receptor refused (the CFDI stays valid).
   */
  status: 'cancelled' | 'pending' | 'rejected';
  /** The SAT acknowledgement (acuse) as the PAC returned it, when there is one. */
  acknowledgement: string | null;
};

/** A PAC refused or failed; `message` is Spanish and safe to show. */
export class PacError extends Error {
  constructor(
    message: string,
    /** The PAC's own code/detail, for the log. */
    readonly detail?: string,
    /** True when retrying later may succeed (network, 5xx). */
    readonly transient = false,
  ) {
    super(message);
  }
}

export interface Pac {
  readonly name: 'sandbox' | 'sw';
  /**
   * Stamps the sealed CFDI. Idempotent: the same sealed CFDI (same Serie/Folio/Sello) sent again answers the
   * stamp the PAC already made (the PAC's "previamente timbrado", SW's 307), never a second UUID. This is how
   * a request that died after the PAC stamped but before we saved recovers the CFDI (decision 015).
   */
  stamp(sealedXml: string): Promise<Stamp>;
  cancel(request: CancelRequest): Promise<CancelResult>;
  /** Follow-up of a cancellation 'en proceso': where it stands now at the SAT. */
  cancellationStatus(request: CancelRequest): Promise<CancelResult>;
}

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
  /** SAT cancellation reason; the shop always uses '02' (comprobante emitido con errores sin relación). */
  motivo: '02';
};

export type CancelResult = {
  /** 'cancelled' at once, or 'pending' when the receptor must accept (SAT rules for amounts > $1,000). */
  status: 'cancelled' | 'pending';
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
}

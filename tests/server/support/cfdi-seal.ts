import { createVerify, X509Certificate } from 'node:crypto';
import { type Comprobante, cadenaOriginal } from '../../../src/server/invoices/cfdi.ts';

/**
 * The Sello of a sealed CFDI verifies, with the certificate it carries, over its cadena original (the same cadena
 * the SAT's cadenaoriginal_4_0.xslt builds: src/server/invoices/cfdi.test.ts checks them against each other).
 */
export function sealVerifies(comprobante: Comprobante): boolean {
  if (!comprobante.sello) return false;
  const cert = new X509Certificate(Buffer.from(comprobante.certificado, 'base64'));
  return createVerify('RSA-SHA256')
    .update(Buffer.from(cadenaOriginal(comprobante), 'utf8'))
    .verify(cert.publicKey, comprobante.sello, 'base64');
}

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Credential } from '@nodecfdi/credentials/node';

/** The SAT's public test CSD of ESCUELA KEMPER URGATE (EKU9003173C9), valid 2023-05-18 … 2027-05-18. */
export const TEST_CSD = {
  certificatePath: join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'csd-eku9003173c9.cer.pem'),
  privateKeyPath: join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'csd-eku9003173c9.key.pem'),
  password: '12345678a',
} as const;

/** A Certificado de Sello Digital ready to seal CFDIs. */
export type Csd = {
  rfc: string;
  legalName: string;
  /** NoCertificado: the 20-digit serial number. */
  certificateNumber: string;
  /** Certificado: the DER certificate in base64, one line. */
  certificateBase64: string;
  validTo: Date;
  /** RSA-SHA256 signature of the UTF-8 bytes of `text`, in base64 (the CFDI Sello). */
  sign(text: string): string;
  /** The certificate and key as SAT delivers them (base64 DER), for PAC cancellation calls. */
  certificateDerBase64: string;
  privateKeyDerBase64: string;
  password: string;
};

function readMaybePem(path: string): string {
  const bytes = readFileSync(path);
  const head = bytes.subarray(0, 11).toString('latin1');
  // PEM is text; SAT's .cer/.key are DER, which the library takes as a binary string.
  return head.startsWith('-----BEGIN') ? bytes.toString('utf8') : bytes.toString('latin1');
}

function pemToDerBase64(pemOrBinary: string): string {
  if (pemOrBinary.startsWith('-----BEGIN')) {
    return pemOrBinary.replace(/-----(BEGIN|END)[^-]+-----/g, '').replace(/\s+/g, '');
  }
  return Buffer.from(pemOrBinary, 'latin1').toString('base64');
}

/**
 * Opens a CSD with @nodecfdi/credentials (PEM or SAT's DER files). Throws a Spanish message when the
 * password is wrong or the key does not belong to the certificate.
 */
export function loadCsd(files: { certificatePath: string; privateKeyPath: string; password: string }): Csd {
  const certificate = readMaybePem(files.certificatePath);
  const privateKey = readMaybePem(files.privateKeyPath);
  let credential: Credential;
  try {
    credential = Credential.create(certificate, privateKey, files.password);
  } catch (error) {
    throw new Error(
      `No se pudo abrir el CSD (${files.certificatePath}): ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (!credential.isCsd()) throw new Error('El certificado configurado no es un CSD (¿es una e.firma?)');
  const cert = credential.certificate();
  return {
    rfc: cert.rfc(),
    legalName: cert.legalName(),
    certificateNumber: cert.serialNumber().bytes(),
    certificateBase64: cert.pemAsOneLine(),
    validTo: new Date(cert.validTo()),
    // The library signs "binary strings" (one char per byte); the cadena original is signed as UTF-8.
    sign: (text) =>
      Buffer.from(credential.sign(Buffer.from(text, 'utf8').toString('latin1')), 'latin1').toString('base64'),
    certificateDerBase64: pemToDerBase64(certificate),
    privateKeyDerBase64: pemToDerBase64(privateKey),
    password: files.password,
  };
}

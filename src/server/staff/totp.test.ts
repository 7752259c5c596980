import { describe, expect, it } from 'vitest';
import {
  base32Decode,
  base32Encode,
  groupedSecret,
  hotp,
  matchTotp,
  newTotpSecret,
  otpauthUri,
  totpCode,
  totpStep,
} from './totp.ts';

const RFC_KEY = Buffer.from('12345678901234567890', 'ascii');

describe('HOTP (RFC 4226, appendix D)', () => {
  it('gives the ten published 6-digit values', () => {
    const expected = [
      '755224',
      '287082',
      '359152',
      '969429',
      '338314',
      '254676',
      '287922',
      '162583',
      '399871',
      '520489',
    ];
    expect(expected.map((_, counter) => hotp(RFC_KEY, counter))).toEqual(expected);
  });
});

describe('TOTP (RFC 6238, appendix B, SHA-1)', () => {
  const vectors: [number, string][] = [
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
    [20000000000, '65353130'],
  ];
  it.each(vectors)('at %i s the 8-digit code is %s', (seconds, code) => {
    const secret = base32Encode(RFC_KEY);
    expect(totpCode(secret, totpStep(seconds * 1000), 8)).toBe(code);
  });

  it('accepts the current step and one either side, nothing further, and names the step', () => {
    const secret = newTotpSecret();
    const at = 1_700_000_000_000;
    const now = totpStep(at);
    expect(matchTotp(secret, totpCode(secret, now), at)).toBe(now);
    expect(matchTotp(secret, totpCode(secret, now - 1), at)).toBe(now - 1);
    expect(matchTotp(secret, totpCode(secret, now + 1), at)).toBe(now + 1);
    expect(matchTotp(secret, totpCode(secret, now - 2), at)).toBeNull();
    expect(matchTotp(secret, totpCode(secret, now + 2), at)).toBeNull();
    expect(matchTotp(secret, '12345', at)).toBeNull();
    expect(matchTotp(secret, 'abcdef', at)).toBeNull();
  });
});

describe('secrets and the otpauth URI', () => {
  it('round-trips base32 and makes 160-bit secrets', () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(base32Encode(base32Decode(secret))).toBe(secret);
    expect(base32Decode(groupedSecret(secret).toLowerCase())).toEqual(base32Decode(secret));
    expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
    expect(() => base32Decode('AB1C')).toThrow();
  });

  it('writes the Key URI Format authenticator apps read', () => {
    const uri = otpauthUri('JBSWY3DPEHPK3PXP', 'laura@ciencia.mx', 'Ciencia Occidente');
    expect(uri).toBe(
      'otpauth://totp/Ciencia%20Occidente:laura%40ciencia.mx?secret=JBSWY3DPEHPK3PXP&issuer=Ciencia+Occidente&algorithm=SHA1&digits=6&period=30',
    );
  });
});

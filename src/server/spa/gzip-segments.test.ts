import { randomBytes } from 'node:crypto';
import { crc32, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { combineCrc, gzipWriter, segment, segmentText } from './gzip-segments.ts';

describe('a gzip response spliced from pieces compressed apart', () => {
  it('the CRC-32 of two texts combined from each one’s equals the CRC-32 of both, for any lengths', () => {
    for (const [a, b] of [
      [0, 0],
      [0, 7],
      [5, 0],
      [1, 1],
      [13, 4096],
      [65_537, 333],
      [250_000, 1_048_577],
    ] as const) {
      const one = randomBytes(a);
      const two = randomBytes(b);
      const second = segment(two, 1);
      expect(combineCrc(crc32(one), second.crc, second.shift)).toBe(crc32(Buffer.concat([one, two])));
    }
  });

  it('pieces at different levels, some empty, decompress to their texts in order (gunzip checks the CRC and size)', () => {
    const texts = [
      '<!doctype html><head>',
      '',
      'ñandú — 1 250,00 $ '.repeat(900),
      'x',
      '<div id="root"></div>',
    ];
    const chunks: Buffer[] = [];
    const gzip = gzipWriter((c) => chunks.push(c));
    for (const [i, t] of texts.entries()) gzip.add(segment(t, [9, 4, 1, 6, 9][i]!));
    gzip.end();
    expect(gunzipSync(Buffer.concat(chunks)).toString()).toBe(texts.join(''));
  });

  it('a piece gives its text back for a response without compression', () => {
    const text = 'Matraz Erlenmeyer de 250 ml — 189,50 $'.repeat(50);
    expect(segmentText(segment(text, 4)).toString()).toBe(text);
    expect(segmentText(segment('', 9)).toString()).toBe('');
  });
});

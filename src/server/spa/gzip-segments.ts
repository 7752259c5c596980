import { constants, crc32, deflateRawSync, inflateRawSync } from 'node:zlib';

/**
 * A gzip response made of separately compressed pieces (docs/decisions/019). Each piece is raw DEFLATE ended by a
 * sync flush (byte-aligned, no final block, no reference back into another piece), so pieces compressed at
 * different times — the page template once at start-up at level 9, a page's markup once per distinct content,
 * the per-request head — are spliced into one valid stream; the trailer's CRC-32 runs over the text in order.
 *
 * A piece keeps only its compressed bytes, its text's CRC-32 and length, and the operator that shifts a CRC past
 * that length: the gzip trailer's CRC is combined from the pieces' own (zlib's crc32_combine, below) instead of being
 * computed again over their text, so a kept body (html-cache.ts) costs its compressed size in memory, ≈ ¼ of its
 * text (decision 042). The rare client that refuses gzip gets the text inflated again.
 */

/** One piece: compressed, with what the gzip trailer needs of its text. */
export type Segment = {
  deflated: Buffer;
  /** CRC-32 of the text. */
  crc: number;
  /** The text's length in bytes. */
  size: number;
  /** x^(8·size) mod the CRC polynomial: multiplies a CRC to shift it past this piece (crc32_combine_op). */
  shift: number;
};

export function segment(text: string | Buffer, level: number): Segment {
  const raw = typeof text === 'string' ? Buffer.from(text) : text;
  return {
    deflated: deflateRawSync(raw, { level, finishFlush: constants.Z_SYNC_FLUSH }),
    crc: crc32(raw),
    size: raw.length,
    shift: x2nmodp(raw.length, 3),
  };
}

/** The piece's text, inflated again (for a response without compression). */
export function segmentText(piece: Segment): Buffer {
  return inflateRawSync(piece.deflated, { finishFlush: constants.Z_SYNC_FLUSH });
}

/** The CRC-32 of two texts one after the other, from each one's CRC (zlib 1.2.12's crc32_combine_op). */
export function combineCrc(crc1: number, crc2: number, shift2: number): number {
  return (multmodp(shift2, crc1) ^ crc2) >>> 0;
}

// CRC-32 arithmetic modulo its polynomial (reflected), as zlib's crc32.c.
const POLY = 0xedb88320;
function multmodp(a: number, b: number): number {
  let m = 0x80000000;
  let p = 0;
  let x = b >>> 0;
  for (;;) {
    if (a & m) {
      p ^= x;
      if ((a & (m - 1)) === 0) break;
    }
    m >>>= 1;
    x = x & 1 ? (x >>> 1) ^ POLY : x >>> 1;
  }
  return p >>> 0;
}
/** x^(2^n) mod p, n = 0…31. */
const X2N: number[] = [];
{
  let p = 0x40000000; // x^1
  X2N.push(p);
  for (let n = 1; n < 32; n += 1) {
    p = multmodp(p, p);
    X2N.push(p);
  }
}
/** x^(n·2^k) mod p. */
function x2nmodp(n: number, k: number): number {
  let p = 0x80000000; // x^0
  let rest = n;
  let i = k;
  while (rest) {
    if (rest & 1) p = multmodp(X2N[i & 31]!, p);
    rest = Math.floor(rest / 2);
    i += 1;
  }
  return p >>> 0;
}

/** The 10-byte gzip header (no name, no time, unknown OS). */
export const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);

/** Writes the pieces of one gzip member: the header first, then each segment, then `end()` closes it. */
export function gzipWriter(write: (chunk: Buffer) => void) {
  let crc = 0;
  let size = 0;
  let started = false;
  return {
    add(s: Segment) {
      if (!started) write(GZIP_HEADER);
      started = true;
      crc = combineCrc(crc, s.crc, s.shift);
      size += s.size;
      write(s.deflated);
    },
    end() {
      if (!started) write(GZIP_HEADER);
      // An empty final stored block, then CRC-32 and size (mod 2^32), little-endian.
      const trailer = Buffer.alloc(13);
      trailer.set([1, 0, 0, 0xff, 0xff]);
      trailer.writeUInt32LE(crc >>> 0, 5);
      trailer.writeUInt32LE(size >>> 0, 9);
      write(trailer);
    },
  };
}

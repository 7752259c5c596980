import { constants, crc32, deflateRawSync } from 'node:zlib';

/**
 * A gzip response made of separately compressed pieces (docs/decisions/019). Each piece is raw DEFLATE ended by a
 * sync flush (byte-aligned, no final block, no reference back into another piece), so pieces compressed at
 * different times — the page template once at start-up at level 9, a page's markup once per distinct content,
 * the per-request head — are spliced into one valid stream; the trailer's CRC-32 runs over the text in order.
 */

/** One piece: its text and its compressed form. */
export type Segment = { text: Buffer; deflated: Buffer };

export function segment(text: string | Buffer, level: number): Segment {
  const raw = typeof text === 'string' ? Buffer.from(text) : text;
  return { text: raw, deflated: deflateRawSync(raw, { level, finishFlush: constants.Z_SYNC_FLUSH }) };
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
      crc = crc32(s.text, crc);
      size += s.text.length;
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

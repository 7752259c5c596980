import { promisify } from 'node:util';
import { crc32, deflateRaw, deflateRawSync } from 'node:zlib';

/**
 * A ZIP archive writer on node:zlib (PKWARE APPNOTE.TXT §4.3; decision 066), the one home of the format's bytes:
 * the accountant's download streams the period's CFDIs through `zipStream` (each file is made, deflated and
 * handed on before the next is made: memory holds one file plus the central directory, ~100 bytes a file); the
 * XLSX report and the tests' workbooks build small archives whole with `zipSync`. No ZIP64: at most
 * ZIP_MAX_ENTRIES files and 4 GiB, which the callers check before they start.
 */

export const ZIP_MAX_ENTRIES = 0xffff;
const MAX_OFFSET = 0xffffffff;
const UTF8_NAMES = 0x0800;

export type ZipFile = { name: string; data: Buffer | Uint8Array | string; store?: boolean };

type Encoded = { name: Buffer; crc: number; size: number; body: Buffer; method: 0 | 8 };

const asBuffer = (data: ZipFile['data']) =>
  typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.isBuffer(data) ? data : Buffer.from(data);

/** MS-DOS date and time (APPNOTE §4.4.6) of the files, in UTC: the names carry the documents' own dates. */
function dosDateTime(at: Date): { time: number; date: number } {
  return {
    time: (at.getUTCHours() << 11) | (at.getUTCMinutes() << 5) | Math.floor(at.getUTCSeconds() / 2),
    date: ((at.getUTCFullYear() - 1980) << 9) | ((at.getUTCMonth() + 1) << 5) | at.getUTCDate(),
  };
}

function localHeader(e: Encoded, stamp: { time: number; date: number }): Buffer {
  const h = Buffer.alloc(30);
  h.writeUInt32LE(0x04034b50, 0);
  h.writeUInt16LE(20, 4);
  h.writeUInt16LE(UTF8_NAMES, 6);
  h.writeUInt16LE(e.method, 8);
  h.writeUInt16LE(stamp.time, 10);
  h.writeUInt16LE(stamp.date, 12);
  h.writeUInt32LE(e.crc, 14);
  h.writeUInt32LE(e.body.length, 18);
  h.writeUInt32LE(e.size, 22);
  h.writeUInt16LE(e.name.length, 26);
  return Buffer.concat([h, e.name]);
}

function centralHeader(e: Encoded, offset: number, stamp: { time: number; date: number }): Buffer {
  const h = Buffer.alloc(46);
  h.writeUInt32LE(0x02014b50, 0);
  h.writeUInt16LE(20, 4);
  h.writeUInt16LE(20, 6);
  h.writeUInt16LE(UTF8_NAMES, 8);
  h.writeUInt16LE(e.method, 10);
  h.writeUInt16LE(stamp.time, 12);
  h.writeUInt16LE(stamp.date, 14);
  h.writeUInt32LE(e.crc, 16);
  h.writeUInt32LE(e.body.length, 20);
  h.writeUInt32LE(e.size, 24);
  h.writeUInt16LE(e.name.length, 28);
  h.writeUInt32LE(offset, 42);
  return Buffer.concat([h, e.name]);
}

function endRecord(count: number, directorySize: number, directoryOffset: number): Buffer {
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(count, 8);
  end.writeUInt16LE(count, 10);
  end.writeUInt32LE(directorySize, 12);
  end.writeUInt32LE(directoryOffset, 16);
  return end;
}

const encodedOf = (file: ZipFile, raw: Buffer, body: Buffer): Encoded => ({
  name: Buffer.from(file.name, 'utf8'),
  crc: crc32(raw),
  size: raw.length,
  body,
  method: file.store ? 0 : 8,
});

/**
 * The archive as a sequence of byte chunks, pulled one file at a time: wrap it in `Readable.from` and the next
 * file is asked of `files` only when the reader (the HTTP response) has taken the previous one.
 */
export async function* zipStream(files: AsyncIterable<ZipFile>, now = new Date()): AsyncGenerator<Buffer> {
  const stamp = dosDateTime(now);
  const deflate = promisify(deflateRaw);
  const central: Buffer[] = [];
  let offset = 0;
  for await (const file of files) {
    if (central.length >= ZIP_MAX_ENTRIES) throw new Error('ZIP: demasiados archivos (sin ZIP64)');
    const raw = asBuffer(file.data);
    const e = encodedOf(file, raw, file.store ? raw : await deflate(raw));
    const local = localHeader(e, stamp);
    if (offset + local.length + e.body.length > MAX_OFFSET) throw new Error('ZIP: más de 4 GiB (sin ZIP64)');
    central.push(centralHeader(e, offset, stamp));
    offset += local.length + e.body.length;
    yield local;
    yield e.body;
  }
  const directory = Buffer.concat(central);
  yield directory;
  yield endRecord(central.length, directory.length, offset);
}

/** A small archive built whole (a workbook, a test's fixture). */
export function zipSync(files: readonly ZipFile[], now = new Date()): Buffer {
  const stamp = dosDateTime(now);
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const file of files) {
    const raw = asBuffer(file.data);
    const e = encodedOf(file, raw, file.store ? raw : deflateRawSync(raw));
    const local = localHeader(e, stamp);
    central.push(centralHeader(e, offset, stamp));
    parts.push(local, e.body);
    offset += local.length + e.body.length;
  }
  const directory = Buffer.concat(central);
  return Buffer.concat([...parts, directory, endRecord(central.length, directory.length, offset)]);
}

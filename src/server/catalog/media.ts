import sharp from 'sharp';

/** The widths product images are served at; any requested width snaps up to one of these. */
export const IMAGE_WIDTHS = [160, 320, 640] as const;
export type ImageFormat = 'webp' | 'jpeg';

export function snapWidth(requested: number | undefined): number {
  const max = IMAGE_WIDTHS[IMAGE_WIDTHS.length - 1]!;
  if (requested === undefined) return max;
  return IMAGE_WIDTHS.find((w) => w >= requested) ?? max;
}

/** WebP only when the browser says it takes it; JPEG otherwise (every browser shows JPEG). */
export function negotiateFormat(accept: string | undefined): ImageFormat {
  if (!accept) return 'jpeg';
  for (const part of accept.split(',')) {
    const [type, ...params] = part.trim().toLowerCase().split(';');
    if (type?.trim() !== 'image/webp') continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q && Number(q.slice(2)) === 0) return 'jpeg';
    return 'webp';
  }
  return 'jpeg';
}

/** A small LRU bounded by total bytes: resized pictures are keyed by content hash, so products sharing one share it. */
export class ByteLru {
  private readonly map = new Map<string, Buffer>();
  private bytes = 0;
  constructor(private readonly maxBytes: number) {}

  get(key: string): Buffer | undefined {
    const hit = this.map.get(key);
    if (hit) {
      this.map.delete(key);
      this.map.set(key, hit);
    }
    return hit;
  }

  set(key: string, value: Buffer): void {
    if (value.length > this.maxBytes) return;
    const old = this.map.get(key);
    if (old) {
      this.bytes -= old.length;
      this.map.delete(key);
    }
    this.map.set(key, value);
    this.bytes += value.length;
    for (const [k, v] of this.map) {
      if (this.bytes <= this.maxBytes) break;
      this.map.delete(k);
      this.bytes -= v.length;
    }
  }

  get size() {
    return this.map.size;
  }
}

const resized = new ByteLru(32 * 1024 * 1024);
const pending = new Map<string, Promise<Buffer>>();

/** Resizes (never enlarges) and encodes a stored picture; cached in memory by (hash, width, format). */
export async function renderImage(
  hash: string,
  load: () => Promise<Buffer | null>,
  width: number,
  format: ImageFormat,
): Promise<Buffer | null> {
  const key = `${hash}:${width}:${format}`;
  const hit = resized.get(key);
  if (hit) return hit;
  const inFlight = pending.get(key);
  if (inFlight) return inFlight;
  const original = await load();
  if (!original) return null;
  const job = (async () => {
    const pipeline = sharp(original).resize({ width, withoutEnlargement: true });
    const out =
      format === 'webp'
        ? await pipeline.webp({ quality: 80 }).toBuffer()
        : await pipeline.jpeg({ quality: 82, mozjpeg: true }).toBuffer();
    resized.set(key, out);
    return out;
  })();
  pending.set(key, job);
  try {
    return await job;
  } finally {
    pending.delete(key);
  }
}

/** True when the bytes open with a PDF header ('%PDF-1.x' or '%PDF-2.x') at byte 0, as every PDF does. */
export const hasPdfHeader = (data: Buffer): boolean => /^%PDF-[12]\.\d/.test(data.toString('latin1', 0, 8));

/** The content type of stored logo bytes, from their first bytes (never from a stored label). */
export function sniffImageType(data: Buffer): string | null {
  if (
    data.length >= 8 &&
    data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  )
    return 'image/png';
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg';
  if (
    data.length >= 12 &&
    data.toString('ascii', 0, 4) === 'RIFF' &&
    data.toString('ascii', 8, 12) === 'WEBP'
  )
    return 'image/webp';
  if (data.length >= 6 && /^GIF8[79]a/.test(data.toString('ascii', 0, 6))) return 'image/gif';
  const head = data
    .subarray(0, 512)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (/^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(head))
    return 'image/svg+xml';
  return null;
}

import { hash } from 'node:crypto';
import type { Segment } from './gzip-segments.ts';

/**
 * Rendered page bodies (React's markup and the query cache it was rendered from), kept by what they were made of
 * (docs/decisions/019): the address and the page's data exactly as read for this request.
 * Every request still reads the database — price and stock are never older than the request — and only skips
 * React's render and the compression when the data it read is the data a previous render was made of. Stock is
 * part of the data, so a sale changes the key; nothing is kept apart from the data it belongs to.
 * Bounded by the bytes held; the least recently used body goes first.
 */
export class HtmlCache {
  private readonly entries = new Map<string, Segment[]>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  /** `state` as serializeQueryState writes it: the same data, the same text (its timestamps are 0). */
  static key(address: string, status: number, state: string): string {
    return hash('sha256', `${status} ${address}\n${state}`, 'base64url');
  }

  get(key: string): Segment[] | undefined {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  /** A body in its pieces (the page's utilities, shared with other bodies, count for each). */
  set(key: string, value: Segment[]): void {
    const size = HtmlCache.bytes(value);
    if (size > this.maxBytes || this.entries.has(key)) return;
    this.entries.set(key, value);
    this.bytes += size;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= HtmlCache.bytes(entry);
    }
  }

  private static bytes(pieces: Segment[]): number {
    return pieces.reduce((n, p) => n + p.deflated.length, 0);
  }

  get size(): number {
    return this.entries.size;
  }
}

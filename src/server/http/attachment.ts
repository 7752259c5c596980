import type { FastifyReply, FastifyRequest } from 'fastify';
import { fileNamePart } from '../../shared/lots.ts';

/**
 * Files the shop hands out (PDFs, XML): one home for Content-Type, Content-Disposition and caching, used by
 * every download route (technical sheet, HDS, certificates of analysis, invoices, credit notes, quotations).
 */

const YEAR = 'public, max-age=31536000, immutable';
/** Without the matching ?v= the bytes may change under the same URL: revalidate with the ETag. */
const REVALIDATE = 'public, max-age=0, must-revalidate';

/** True when the browser's copy (If-None-Match) is this version. */
export function notModified(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match'];
  if (!header) return false;
  return header === '*' || header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

/** ETag and Cache-Control of a public file: a year when the URL names its version (?v=hash), else revalidate. */
export function cacheHeaders(reply: FastifyReply, etag: string, immutable: boolean) {
  reply.header('ETag', etag).header('Cache-Control', immutable ? YEAR : REVALIDATE);
}

export type Attachment = {
  /** The name the browser saves it under; anything but letters, digits, '.', '-' and '_' becomes '_'. */
  filename: string;
  type: 'application/pdf' | 'application/xml; charset=utf-8';
  /** 'inline' shows it in the browser (the technical sheet's frame); default 'attachment'. */
  disposition?: 'inline' | 'attachment';
  /**
   * Public and versioned by content: ETag = "hash", a year's caching when the URL carries ?v=hash, 304 on a
   * matching If-None-Match. 'private' = the buyer's own papers, never stored by a cache. Absent: no caching
   * headers.
   */
  cache?: { hash: string; immutable: boolean } | 'private';
};

/** Sends a file with its headers (or 304 when the browser already has this version). */
export function sendAttachment(
  request: FastifyRequest,
  reply: FastifyReply,
  body: Buffer | Uint8Array | string,
  file: Attachment,
): FastifyReply {
  if (file.cache === 'private') reply.header('Cache-Control', 'private, no-store');
  const disposition = file.disposition ?? 'attachment';
  reply.header('Content-Disposition', `${disposition}; filename="${fileNamePart(file.filename)}"`);
  // A download is never a page of the shop: should a browser render it after all (a user's setting, an old
  // upload that is not what it claims), it runs in a sandbox, with no script and no access to the shop's origin
  // (decision 053). Not for 'inline': Chrome's PDF viewer does not start in a sandboxed document.
  if (disposition === 'attachment')
    reply.header('Content-Security-Policy', "sandbox; default-src 'none'; frame-ancestors 'none'");
  if (file.cache && file.cache !== 'private') {
    const etag = `"${file.cache.hash}"`;
    cacheHeaders(reply, etag, file.cache.immutable);
    if (notModified(request, etag)) return reply.code(304).send();
  }
  return reply
    .type(file.type)
    .send(typeof body === 'string' || Buffer.isBuffer(body) ? body : Buffer.from(body));
}

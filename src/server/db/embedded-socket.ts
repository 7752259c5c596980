import { existsSync, unlinkSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';

/**
 * The shop's embedded database, served to the commands on this machine (staff:create, import,
 * seed:demo, db:migrate) over a unix socket in the data directory, in PostgreSQL's wire protocol
 * (issue 16, decision 017): they reach the very database the running shop uses instead of opening a
 * second copy of the folder whose writes would vanish. Same idea as @electric-sql/pglite-socket, whose
 * release pins another PGlite version; this is the small part the shop needs.
 *
 * PGlite is one backend. A connection holds it for as long as it is open — both its transaction and
 * query locks, so a command's statements never land inside a transaction of the shop — and the shop's
 * own queries wait meanwhile (a command takes seconds). One connection at a time; others queue.
 */

/** The socket pg connects to with `host` = the folder and port 5432 (`<dir>/.s.PGSQL.5432`). */
export const SOCKET_PORT = 5432;
export const socketFile = (dir: string) => join(dir, `.s.PGSQL.${SOCKET_PORT}`);
/** Unix socket paths are limited to 107 bytes on Linux. */
export const socketPathFits = (dir: string) => Buffer.byteLength(socketFile(dir)) < 104;

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
/** Simple-protocol `ROLLBACK`: a command that disconnects mid-transaction leaves nothing open. */
const ROLLBACK = (() => {
  const body = Buffer.from('ROLLBACK\0', 'utf8');
  const head = Buffer.alloc(5);
  head.write('Q', 0, 'ascii');
  head.writeInt32BE(body.length + 4, 1);
  return new Uint8Array(Buffer.concat([head, body]));
})();

export type EmbeddedSocketServer = { stop(): Promise<void> };

export async function serveEmbeddedDatabase(db: PGlite, dir: string): Promise<EmbeddedSocketServer> {
  const path = socketFile(dir);
  if (existsSync(path)) unlinkSync(path); // left by a process that died (the data-dir lock is ours)
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    void serveConnection(db, socket);
  });
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolveListen());
  });
  return {
    stop: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
      try {
        unlinkSync(path);
      } catch {}
    },
  };
}

async function serveConnection(db: PGlite, socket: Socket): Promise<void> {
  let pending = Buffer.alloc(0);
  let started = false;
  let closed = false;
  let wake: (() => void) | undefined;
  socket.on('data', (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    wake?.();
  });
  socket.on('close', () => {
    closed = true;
    wake?.();
  });
  socket.on('error', () => socket.destroy());
  const next = () =>
    new Promise<void>((r) => {
      wake = r;
    });

  /** Complete messages at the head of `pending` (PostgreSQL frames: [type] int32 length, body). */
  const takeComplete = (): Buffer | null => {
    let end = 0;
    for (;;) {
      const headerLength = started ? 5 : 4;
      if (pending.length < end + headerLength) break;
      const length = pending.readInt32BE(end + (started ? 1 : 0));
      const total = (started ? 1 : 0) + length;
      if (length < 4 || pending.length < end + total) break;
      if (!started) {
        // Startup-phase packets: SSL/GSS encryption requests get 'N' (plain socket); a cancel is ignored.
        const code = pending.readInt32BE(end + 4);
        if (code === SSL_REQUEST || code === GSSENC_REQUEST || code === CANCEL_REQUEST) {
          if (code !== CANCEL_REQUEST) socket.write('N');
          else socket.end();
          pending = pending.subarray(end + total);
          continue;
        }
        started = true;
      }
      end += total;
    }
    if (end === 0) return null;
    const messages = pending.subarray(0, end);
    pending = pending.subarray(end);
    return messages;
  };

  // Wait for the first bytes before taking the database: a connection that never speaks holds nothing.
  while (!closed && pending.length === 0) await next();
  if (closed) return;
  await db._runExclusiveTransaction(() =>
    db._runExclusiveQuery(async () => {
      try {
        while (!closed) {
          const messages = takeComplete();
          if (!messages) {
            await next();
            continue;
          }
          const answer = await db.execProtocolRaw(new Uint8Array(messages));
          if (answer.length > 0 && !closed) socket.write(answer);
          // 'X' (Terminate) ends the session.
          if (
            started &&
            messages[messages.length - 5] === 0x58 &&
            messages.readInt32BE(messages.length - 4) === 4
          ) {
            socket.end();
            break;
          }
        }
      } catch {
        socket.destroy();
      } finally {
        await db.execProtocolRaw(ROLLBACK).catch(() => undefined);
      }
    }),
  );
}

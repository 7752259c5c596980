// The production smoke test's mail server (scripts/smoke-production.sh): production refuses to start without
// SMTP_URL and has no /dev/correo, so the journey reads the mails the shop sent from here. Each message is written
// whole to MAIL_DIR as <n>.eml; prints "listo" once listening on 127.0.0.1:SMTP_PORT.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';

const port = Number(process.env.SMTP_PORT ?? 3625);
const dir = process.env.MAIL_DIR ?? 'test-results/smoke-mail';
mkdirSync(dir, { recursive: true });
let count = 0;

const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  disableReverseLookup: true,
  logger: false,
  onData(stream, _session, callback) {
    const chunks = [];
    stream.on('data', (c) => chunks.push(c));
    stream.on('end', () => {
      count += 1;
      writeFileSync(join(dir, `${String(count).padStart(4, '0')}.eml`), Buffer.concat(chunks));
      callback();
    });
  },
});
server.on('error', (error) => console.error('smtp:', error.message));
server.listen(port, '127.0.0.1', () => console.log(`listo: smtp://127.0.0.1:${port} → ${dir}`));
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => server.close(() => process.exit(0)));

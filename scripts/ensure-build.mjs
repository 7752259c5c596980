// Runs before `npm start`: builds the client (vite) when dist/client is missing or older than its sources, and the
// server (scripts/build-server.mjs, docs/decisions/055) when dist/server is missing or older than its sources;
// `npm start` then runs the built server, as production does.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const newest = (path) => {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let t = 0;
  for (const entry of readdirSync(path)) t = Math.max(t, newest(join(path, entry)));
  return t;
};
const older = (output, sources) =>
  !existsSync(output) || statSync(output).mtimeMs < Math.max(...sources.map(newest));

if (older('dist/client/index.html', ['src/client', 'src/shared', 'config', 'vite.config.ts'])) {
  console.log('Compilando el cliente (vite build)…');
  execSync('npx vite build --logLevel warn', { stdio: 'inherit' });
}
if (
  older('dist/server/main.js', [
    'src',
    'config',
    'scripts/build-server.mjs',
    'scripts/migrate.ts',
    'scripts/staff-create.ts',
    'scripts/cli.ts',
    'tsconfig.json',
    'package.json',
  ])
) {
  console.log('Compilando el servidor (scripts/build-server.mjs)…');
  execSync(`"${process.execPath}" scripts/build-server.mjs`, { stdio: 'inherit' });
}

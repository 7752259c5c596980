// Runs before `npm start`: builds the client when dist/client is missing or older than its sources.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const newest = (dir) => {
  let t = 0;
  if (!existsSync(dir)) return t;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    t = Math.max(t, entry.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
};

const index = 'dist/client/index.html';
const sources = Math.max(
  newest('src/client'),
  newest('src/shared'),
  newest('config'),
  statSync('vite.config.ts').mtimeMs,
);
if (!existsSync(index) || statSync(index).mtimeMs < sources) {
  console.log('Compilando el cliente (vite build)…');
  execSync('npx vite build --logLevel warn', { stdio: 'inherit' });
}

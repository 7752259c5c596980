// The browser journeys' database template, made once per run (decision 032): `node --import tsx
// scripts/e2e-template.ts <folder>` writes
//   <folder>/migrated.tar  PGlite's data directory right after every migration (the safety shop loads it into
//                          its in-memory database instead of running initdb and the migrations again);
//   <folder>/pglite        the same, plus what a shop started on an empty catalogue loads (seedDemoIfEmpty):
//                          each journey server (scripts/e2e-server.mjs) and admin.spec.ts's server copy it into
//                          their own data directory, so none of them runs initdb, the migrations and the demo
//                          catalogue again (≈ 11 s of CPU each on this machine; opening a copy costs ≈ 3 s).
// Nothing is shared at run time: every server still has its own copy, as it had its own fresh database.
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { seedDemoIfEmpty } from '../src/server/catalog/demo/seed.ts';
import { openDatabase } from '../src/server/db/client.ts';

const target = resolve(process.argv[2] ?? 'test-results/e2e-template');
const started = performance.now();
// Built next to the target and renamed at the end, so a half-made template is never taken for a made one.
const building = `${target}.building-${process.pid}`;
rmSync(building, { recursive: true, force: true });
mkdirSync(building, { recursive: true });

const memory = await openDatabase({ dataDir: 'memory://' });
await memory.migrate();
const migrated = await memory.dumpDataDir!();
await memory.close();
writeFileSync(join(building, 'migrated.tar'), Buffer.from(await migrated.arrayBuffer()));

const seeded = await openDatabase({ dataDir: building, loadDataDir: migrated });
const quiet = { info: () => {} };
await seedDemoIfEmpty(seeded.db, quiet);
await seeded.close();

rmSync(target, { recursive: true, force: true });
renameSync(building, target);
console.log(
  `Plantilla de los recorridos (migrada y con el catálogo demo) en ${((performance.now() - started) / 1000).toFixed(1)} s: ${target}`,
);

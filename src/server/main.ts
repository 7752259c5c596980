import { existsSync } from 'node:fs';
import { flushCompileCache } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { shop } from '../shared/shop.ts';
import { shopConfigSchema } from '../shared/shop-schema.ts';
import { buildApp } from './app.ts';
import { seedDemoIfEmpty } from './catalog/demo/seed.ts';
import { isClusterWorker, primaryLogger, runPrimary, webConcurrency } from './cluster.ts';
import { assertPaymentsAllowed, assertProductionSettings, ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { assertInvoicingAllowed } from './invoices/config.ts';
import { startBackgroundJobs } from './jobs.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

async function main() {
  const started = Date.now();
  const config = loadConfig();
  assertProductionSettings(config);
  assertPaymentsAllowed(config);
  assertInvoicingAllowed(config);
  const shopCheck = shopConfigSchema.safeParse(shop);
  if (!shopCheck.success) {
    throw new ConfigError(
      `config/shop.json inválido — ${shopCheck.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  }
  const clientDir = resolve(root, process.env.CLIENT_DIR ?? 'dist/client');
  config.clientDir = existsSync(resolve(clientDir, 'index.html')) ? clientDir : undefined;

  // WEB_CONCURRENCY=N (PostgreSQL only): this process migrates and seeds once, then forks N workers.
  const workers = webConcurrency(process.env, config.databaseUrl);
  const worker = isClusterWorker();
  if (workers > 1 && !worker) {
    const log = primaryLogger(config.logLevel);
    const database = await openDatabase({ databaseUrl: config.databaseUrl, maxConnections: 2 });
    await database.migrate();
    if (config.seedDemo) await seedDemoIfEmpty(database.db, log);
    await database.close();
    runPrimary({
      workers,
      log,
      onReady: () => log.info({ url: config.publicUrl, workers, ms: Date.now() - started }, 'tienda lista'),
    });
    return;
  }

  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    role: 'shop',
  });
  if (!worker) await database.migrate();
  const app = await buildApp(config, { database });
  if (!worker && config.seedDemo) await seedDemoIfEmpty(database.db, app.log);

  const stopBackgroundJobs = startBackgroundJobs(app);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'deteniendo: no se aceptan nuevas conexiones; terminando solicitudes en curso');
    const force = setTimeout(() => {
      app.log.error('cierre forzado tras 10 s');
      process.exit(1);
    }, 10_000);
    force.unref();
    try {
      await stopBackgroundJobs();
      await app.close();
      await database.close();
      app.log.info('detenido');
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'error al detener');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    {
      url: config.publicUrl,
      database: database.kind,
      client: Boolean(config.clientDir),
      ms: Date.now() - started,
    },
    'tienda lista',
  );
  // With Node's compile cache on (scripts/quick-start.mjs, for the test harnesses: decision 040), write it now:
  // those servers are mostly killed, never reaching the exit that would write it. Without the cache, nothing.
  flushCompileCache();
}

const causeText = (error: unknown): string =>
  error instanceof Error
    ? `${error.message} ${causeText(error.cause)} ${'code' in error ? String(error.code) : ''}`
    : '';

main().catch((error: unknown) => {
  const text = causeText(error);
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else if (/ECONNREFUSED|ENOTFOUND|EAI_AGAIN|password authentication|does not exist|timeout/i.test(text)) {
    console.error(
      `No se pudo conectar a la base de datos (DATABASE_URL): ${text.replace(/\s+/g, ' ').trim()}`,
    );
  } else if (text.includes('EADDRINUSE')) {
    console.error(`El puerto ya está en uso (PORT=${process.env.PORT ?? 3000}).`);
  } else {
    console.error(error);
  }
  process.exit(1);
});

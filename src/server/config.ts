import { z } from 'zod';

const databaseUrl = z
  .string()
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === 'postgres:' || u.protocol === 'postgresql:') && u.hostname !== '';
    } catch {
      return false;
    }
  }, 'debe ser una URL postgres://usuario:clave@servidor:puerto/base')
  .optional();

/** Environment variables, validated at start. Every variable is listed in the README. */
export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce
    .number({ error: 'debe ser un número de puerto' })
    .int('debe ser un número de puerto')
    .min(0, 'debe estar entre 0 y 65535')
    .max(65535, 'debe estar entre 0 y 65535')
    .default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: databaseUrl,
  DATA_DIR: z.string().min(1).default('./data'),
  PUBLIC_URL: z.url('debe ser una URL http(s)://…').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Fill the demo catalogue on first start when the catalogue is empty. */
  SEED_DEMO: z.enum(['true', 'false']).default('true'),
});

export type Env = z.infer<typeof envSchema>;

export type AppConfig = {
  env: Env['NODE_ENV'];
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  publicUrl: string;
  logLevel: Env['LOG_LEVEL'];
  seedDemo: boolean;
  /** Directory of the built client (index.html and hashed assets); absent in API-only tests. */
  clientDir: string | undefined;
};

export class ConfigError extends Error {}

/** Reads the environment; throws ConfigError with one line per bad variable, naming it. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): AppConfig {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Configuración inválida — ${lines.join('; ')}`);
  }
  const env = parsed.data;
  return {
    env: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    databaseUrl: env.DATABASE_URL,
    dataDir: env.DATA_DIR,
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ''),
    logLevel: env.LOG_LEVEL,
    seedDemo: env.SEED_DEMO === 'true',
    clientDir: undefined,
  };
}

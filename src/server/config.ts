import { isIP } from 'node:net';
import { z } from 'zod';
import { ConfigError } from './config-error.ts';
import { type InvoicingConfig, invoicingConfig } from './invoices/config.ts';
import { invoicingEnvShape } from './invoices/env.ts';
import { type MailConfig, mailConfig, mailEnvShape } from './mail/config.ts';

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
  /** Default: every interface in production, only this machine (127.0.0.1) otherwise (see hostDefault). */
  HOST: z.string().min(1).optional(),
  DATABASE_URL: databaseUrl,
  DATA_DIR: z.string().min(1).default('./data'),
  PUBLIC_URL: z.url('debe ser una URL http(s)://…').optional(),
  TRUST_PROXY: z
    .string()
    .refine(
      (v) => /^\d{1,2}$/.test(v) || v.split(',').every((a) => isIP(a.trim().split('/')[0] ?? '') !== 0),
      'debe ser un número de proxies (0, 1, 2…) o una lista de direcciones IP o CIDR separadas por comas',
    )
    .optional(),
  RATE_LIMIT_PER_MINUTE: z.coerce
    .number({ error: 'debe ser un número entero (0 desactiva los límites)' })
    .int('debe ser un número entero (0 desactiva los límites)')
    .min(0, 'debe ser un número entero (0 desactiva los límites)')
    .default(1200),
  RATE_LIMIT_PAGE_RENDERS_PER_MINUTE: z.coerce
    .number({ error: 'debe ser un número entero (0 desactiva el límite)' })
    .int('debe ser un número entero (0 desactiva el límite)')
    .min(0, 'debe ser un número entero (0 desactiva el límite)')
    .default(120),
  RATE_LIMIT_SENSITIVE_PER_MINUTE: z.coerce
    .number({ error: 'debe ser un número entero mayor que 0' })
    .int('debe ser un número entero mayor que 0')
    .min(1, 'debe ser un número entero mayor que 0')
    .default(20),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Fill the demo catalogue on first start when the catalogue is empty. */
  SEED_DEMO: z.enum(['true', 'false']).optional(),
  /** The interactive API documentation at /api/docs (and /api/openapi.json); default on. */
  /** Default: on, except with NODE_ENV=production (see loadConfig). */
  API_DOCS: z.enum(['true', 'false']).optional(),
  /** Bearer token that opens /metrics to other machines (this machine needs none). */
  METRICS_TOKEN: z.string().min(16, 'debe tener al menos 16 caracteres').optional(),
  /** Card payments: the offline simulator (default) or Openpay. */
  PAYMENT_GATEWAY: z.enum(['sandbox', 'openpay'], { error: 'debe ser sandbox u openpay' }).default('sandbox'),
  PAYMENTS_SANDBOX_IN_PRODUCTION: z.enum(['true', 'false']).default('false'),
  /** How long an unpaid order keeps its stock, and the shorter hold once it waits on 3-D Secure (issue 23). */
  CHECKOUT_HOLD_MINUTES: z.coerce
    .number({ error: 'debe ser un número entero de minutos (1 a 1440)' })
    .int('debe ser un número entero de minutos (1 a 1440)')
    .min(1, 'debe ser un número entero de minutos (1 a 1440)')
    .max(1440, 'debe ser un número entero de minutos (1 a 1440)')
    .default(30),
  CHECKOUT_3DS_HOLD_MINUTES: z.coerce
    .number({ error: 'debe ser un número entero de minutos (1 a 1440)' })
    .int('debe ser un número entero de minutos (1 a 1440)')
    .min(1, 'debe ser un número entero de minutos (1 a 1440)')
    .max(1440, 'debe ser un número entero de minutos (1 a 1440)')
    .default(10),
  /** Per shopper: unpaid orders at once, and units they hold (issue 23: one account must not empty the shelf). */
  CHECKOUT_MAX_PENDING_ORDERS: z.coerce
    .number({ error: 'debe ser un número entero mayor que 0' })
    .int('debe ser un número entero mayor que 0')
    .min(1, 'debe ser un número entero mayor que 0')
    .default(2),
  CHECKOUT_MAX_RESERVED_UNITS: z.coerce
    .number({ error: 'debe ser un número entero mayor que 0' })
    .int('debe ser un número entero mayor que 0')
    .min(1, 'debe ser un número entero mayor que 0')
    .default(500),
  /** Per unpaid SPEI/store order: the most of a product's stock it may hold (issue 37: a stranger held it all). */
  CHECKOUT_MAX_UNPAID_SHARE_PERCENT: z.coerce
    .number({ error: 'debe ser un porcentaje entero (1 a 100)' })
    .int('debe ser un porcentaje entero (1 a 100)')
    .min(1, 'debe ser un porcentaje entero (1 a 100)')
    .max(100, 'debe ser un porcentaje entero (1 a 100)')
    .default(50),
  /** 'Por agotarse' (decision 066): the reorder point of a presentation that has none of its own. */
  REORDER_POINT_DEFAULT: z.coerce
    .number({ error: 'debe ser un número entero de piezas (0 a 100000)' })
    .int('debe ser un número entero de piezas (0 a 100000)')
    .min(0, 'debe ser un número entero de piezas (0 a 100000)')
    .max(100_000, 'debe ser un número entero de piezas (0 a 100000)')
    .default(5),
  OPENPAY_MERCHANT_ID: z
    .string()
    .regex(/^[a-z0-9]+$/i, 'debe ser el ID de comercio de Openpay (letras y dígitos)')
    .optional(),
  OPENPAY_PRIVATE_KEY: z
    .string()
    .regex(/^sk_[a-z0-9]+$/i, 'debe empezar con sk_')
    .optional(),
  OPENPAY_PUBLIC_KEY: z
    .string()
    .regex(/^pk_[a-z0-9]+$/i, 'debe empezar con pk_')
    .optional(),
  OPENPAY_PRODUCTION: z.enum(['true', 'false']).default('false'),
  /** Only for tests against a replica of Openpay's API; derived from OPENPAY_PRODUCTION otherwise. */
  OPENPAY_API_URL: z.url('debe ser una URL http(s)://…').optional(),
  OPENPAY_WEBHOOK_USER: z.string().min(1).optional(),
  OPENPAY_WEBHOOK_PASSWORD: z.string().min(8, 'debe tener al menos 8 caracteres').optional(),
  ...mailEnvShape,
  ...invoicingEnvShape,
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
  /**
   * Which proxies' X-Forwarded-For to believe for the client's address (per-address limits, logs): a hop
   * count or the proxies' addresses. 0 unless TRUST_PROXY says otherwise; production refuses to start
   * without an explicit TRUST_PROXY (assertProductionSettings).
   */
  trustProxy: number | string[];
  /** Per-address limits on /api requests per minute (http/rate-limit.ts); perMinute 0 turns them off. */
  rateLimit: { perMinute: number; sensitivePerMinute: number };
  /** Server renders of pages not already kept, per minute and client address (http/rate-limit.ts RenderBudget); 0: off. */
  pageRendersPerMinute: number;
  seedDemo: boolean;
  /** Serve /api/docs and /api/openapi.json (API_DOCS). */
  apiDocs: boolean;
  /** METRICS_TOKEN: /metrics answers other machines that send it as a Bearer token. */
  metricsToken: string | undefined;
  /** Directory of the built client (index.html and hashed assets); absent in API-only tests. */
  clientDir: string | undefined;
  payments: PaymentsConfig;
  mail: MailConfig;
  invoicing: InvoicingConfig;
  /** Stock (decision 066): the reorder point of a presentation without its own (REORDER_POINT_DEFAULT). */
  stock: { reorderPointDefault: number };
};

export type PaymentsConfig = {
  gateway: 'sandbox' | 'openpay';
  sandboxInProduction: boolean;
  openpay?: {
    merchantId: string;
    privateKey: string;
    publicKey: string;
    production: boolean;
    apiUrl: string;
  };
  webhook?: { user: string; password: string };
  /** Stock held by unpaid orders (issue 23). */
  hold: HoldConfig;
};

export type HoldConfig = {
  minutes: number;
  threeDsMinutes: number;
  maxPendingOrders: number;
  maxReservedUnits: number;
  /** Of a product's stock, the most one unpaid SPEI/store order may hold, in percent. */
  maxUnpaidSharePercent: number;
};

// ConfigError has its own module (config-error.ts); importers of config.ts keep finding it here.
export { ConfigError };

/** Reads the environment; throws ConfigError with one line per bad variable, naming it. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): AppConfig {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Configuración inválida — ${lines.join('; ')}`);
  }
  const env = parsed.data;
  const payments = paymentsConfig(env);
  return {
    env: env.NODE_ENV,
    port: env.PORT,
    // Development tools (the mailbox at /dev/correo) must not be reachable from the network by default.
    host: env.HOST ?? (env.NODE_ENV === 'production' ? '0.0.0.0' : '127.0.0.1'),
    databaseUrl: env.DATABASE_URL,
    dataDir: env.DATA_DIR,
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ''),
    logLevel: env.LOG_LEVEL,
    trustProxy: env.TRUST_PROXY
      ? /^\d+$/.test(env.TRUST_PROXY)
        ? Number(env.TRUST_PROXY)
        : env.TRUST_PROXY.split(',').map((a) => a.trim())
      : 0,
    rateLimit: {
      perMinute: env.RATE_LIMIT_PER_MINUTE,
      sensitivePerMinute: env.RATE_LIMIT_SENSITIVE_PER_MINUTE,
    },
    pageRendersPerMinute: env.RATE_LIMIT_PAGE_RENDERS_PER_MINUTE,
    // Never 600 fictional products in a real shop's database unless asked for.
    seedDemo: (env.SEED_DEMO ?? (env.NODE_ENV === 'production' ? 'false' : 'true')) === 'true',
    // The API's map is for developers: a production shop publishes it only when asked (decision 054).
    apiDocs: (env.API_DOCS ?? (env.NODE_ENV === 'production' ? 'false' : 'true')) === 'true',
    metricsToken: env.METRICS_TOKEN,
    clientDir: undefined,
    payments,
    mail: mailConfig(env),
    invoicing: invoicingConfig(env),
    stock: { reorderPointDefault: env.REORDER_POINT_DEFAULT },
  };
}

function paymentsConfig(env: Env): PaymentsConfig {
  const production = env.OPENPAY_PRODUCTION === 'true';
  let openpay: PaymentsConfig['openpay'];
  if (env.PAYMENT_GATEWAY === 'openpay') {
    const missing = (['OPENPAY_MERCHANT_ID', 'OPENPAY_PRIVATE_KEY', 'OPENPAY_PUBLIC_KEY'] as const).filter(
      (k) => !env[k],
    );
    if (missing.length > 0) {
      throw new ConfigError(
        `Configuración inválida — ${missing.map((k) => `${k}: es obligatoria con PAYMENT_GATEWAY=openpay`).join('; ')}`,
      );
    }
    openpay = {
      merchantId: env.OPENPAY_MERCHANT_ID!,
      privateKey: env.OPENPAY_PRIVATE_KEY!,
      publicKey: env.OPENPAY_PUBLIC_KEY!,
      production,
      apiUrl: (
        env.OPENPAY_API_URL ?? (production ? 'https://api.openpay.mx' : 'https://sandbox-api.openpay.mx')
      ).replace(/\/$/, ''),
    };
  }
  if (Boolean(env.OPENPAY_WEBHOOK_USER) !== Boolean(env.OPENPAY_WEBHOOK_PASSWORD)) {
    throw new ConfigError(
      'Configuración inválida — OPENPAY_WEBHOOK_USER: se configuran juntas OPENPAY_WEBHOOK_USER y OPENPAY_WEBHOOK_PASSWORD',
    );
  }
  return {
    gateway: env.PAYMENT_GATEWAY,
    sandboxInProduction: env.PAYMENTS_SANDBOX_IN_PRODUCTION === 'true',
    hold: {
      minutes: env.CHECKOUT_HOLD_MINUTES,
      threeDsMinutes: Math.min(env.CHECKOUT_3DS_HOLD_MINUTES, env.CHECKOUT_HOLD_MINUTES),
      maxPendingOrders: env.CHECKOUT_MAX_PENDING_ORDERS,
      maxReservedUnits: env.CHECKOUT_MAX_RESERVED_UNITS,
      maxUnpaidSharePercent: env.CHECKOUT_MAX_UNPAID_SHARE_PERCENT,
    },
    ...(openpay ? { openpay } : {}),
    ...(env.OPENPAY_WEBHOOK_USER && env.OPENPAY_WEBHOOK_PASSWORD
      ? { webhook: { user: env.OPENPAY_WEBHOOK_USER, password: env.OPENPAY_WEBHOOK_PASSWORD } }
      : {}),
  };
}

/** The offline payment simulator must never take real shoppers' orders by accident. */
export function assertPaymentsAllowed(config: AppConfig): void {
  if (
    config.env === 'production' &&
    config.payments.gateway === 'sandbox' &&
    !config.payments.sandboxInProduction
  ) {
    throw new ConfigError(
      'Configuración inválida — PAYMENT_GATEWAY: el simulador de pagos (sandbox) no se usa con NODE_ENV=production; configure Openpay o PAYMENTS_SANDBOX_IN_PRODUCTION=true',
    );
  }
}

/**
 * Switches that exist for tests only (decision 054): set with NODE_ENV=production they would point a real shop's
 * payments at a replica or kill it on purpose. The one list of them; assertProductionSettings refuses each one set.
 */
export const TEST_ONLY_VARIABLES = {
  OPENPAY_API_URL: 'apunta los pagos a una réplica de Openpay / points payments at an Openpay replica',
  CFDI_FAILPOINT:
    'detiene el proceso a propósito (pruebas de caos) / kills the process on purpose (chaos tests)',
} as const;

/**
 * Settings production must not guess (issue 23): whom to believe for the client's address, where mail
 * goes and the shop's public address; and no test-only switch (TEST_ONLY_VARIABLES). Checked at the server's start
 * (scripts still load the config). One line naming each variable.
 */
export function assertProductionSettings(config: AppConfig, source: NodeJS.ProcessEnv = process.env): void {
  if (config.env !== 'production') return;
  const given = (name: string) => (source[name] ?? '') !== '';
  const missing: string[] = [];
  if (!given('TRUST_PROXY')) {
    missing.push(
      'TRUST_PROXY: es obligatoria con NODE_ENV=production (0 si la tienda se alcanza directamente; el número de proxies o sus direcciones si hay un proxy delante)',
    );
  }
  if (!given('SMTP_URL')) {
    missing.push('SMTP_URL: es obligatoria con NODE_ENV=production (sin ella los correos nunca se envían)');
  }
  if (!given('PUBLIC_URL')) {
    missing.push(
      'PUBLIC_URL: es obligatoria con NODE_ENV=production (la dirección pública de la tienda, p. ej. https://tienda.example.mx)',
    );
  }
  for (const [name, what] of Object.entries(TEST_ONLY_VARIABLES)) {
    if (given(name)) {
      missing.push(
        `${name}: solo para pruebas, no se permite con NODE_ENV=production; quítela (${what}) — test-only setting, refused with NODE_ENV=production`,
      );
    }
  }
  if (missing.length > 0) throw new ConfigError(`Configuración inválida — ${missing.join('; ')}`);
}

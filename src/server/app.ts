import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { accountRoutes } from './account/routes.ts';
import { guardAdminRoutes } from './admin/guard.ts';
import { adminRoutes } from './admin/routes.ts';
import { csrfPlugin } from './auth/csrf.ts';
import { authRoutes } from './auth/routes.ts';
import { cartRoutes } from './cart/routes.ts';
import { documentRoutes } from './catalog/document-routes.ts';
import { catalogRoutes } from './catalog/routes.ts';
import { checkoutRoutes } from './checkout/routes.ts';
import { chargeReports } from './checkout/settle.ts';
import type { AppConfig } from './config.ts';
import { creditRoutes } from './credit/routes.ts';
import type { Database, Db } from './db/client.ts';
import { healthRoutes } from './health/routes.ts';
import { handleClientError, installErrorHandler, sendFrameworkError, sendNotFound } from './http/errors.ts';
import { rejectNulCharacters } from './http/input-guard.ts';
import { documentErrorResponses } from './http/openapi.ts';
import { RenderBudget, registerRateLimits } from './http/rate-limit.ts';
import { institutionRoutes } from './institutions/routes.ts';
import { invoiceRoutes } from './invoices/routes.ts';
import { createJobRegistry, type JobRegistry } from './jobs.ts';
import { listRoutes } from './lists/routes.ts';
import { devMailRoutes } from './mail/dev-routes.ts';
import { metricsPlugin } from './metrics/routes.ts';
import { ordersRoutes } from './orders/routes.ts';
import { TaxPaperPort } from './orders/tax-papers.ts';
import type { PaymentGateway } from './payments/gateway.ts';
import { paymentsPlugin } from './payments/routes.ts';
import { openpayCspOrigins } from './payments/service.ts';
import { quotationRoutes } from './quotations/routes.ts';
import { requisitionRoutes } from './requisitions/routes.ts';
import { returnsRoutes } from './returns/routes.ts';
import { seoRoutes } from './seo/routes.ts';
import { shipmentShopperRoutes } from './shipments/shopper-routes.ts';
import { spaPlugin } from './spa/plugin.ts';
import { staffRoutes } from './staff/routes.ts';
import { stockAlertRoutes } from './stock-alerts/routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: AppConfig;
    database: Database;
    db: Db;
    /** Money movements ask for their CFDI through it (orders → invoices, decision 045). */
    taxPapers: TaxPaperPort;
    /** The background jobs (jobs.ts): started by main.ts only; tests call `jobs.runOnce(name)`. */
    jobs: JobRegistry;
  }
}

export type AppDeps = {
  database: Database;
  /** Tests pass their own card gateway; otherwise PAYMENT_GATEWAY decides. */
  paymentGateway?: PaymentGateway;
};

/** Content-Security-Policy: scripts only from our origin; nothing may frame the shop. */
export function contentSecurityPolicy(config: AppConfig) {
  return {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", ...openpayCspOrigins(config).script],
      // React sets style properties through the CSSOM; the toaster injects one <style> element.
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:', ...openpayCspOrigins(config).api],
      fontSrc: ["'self'"],
      connectSrc: ["'self'", ...openpayCspOrigins(config).api],
      frameSrc: ["'self'", ...openpayCspOrigins(config).api],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      ...(config.env === 'production' ? { upgradeInsecureRequests: [] } : {}),
    },
  };
}

/**
 * Browser features nobody on the shop's pages needs (camera, microphone, location, devices, FLoC/Topics). Only
 * features Chromium recognises: an unknown one ('bluetooth') makes it log a warning on every page.
 */
const PERMISSIONS_POLICY = [
  'camera=()',
  'microphone=()',
  'geolocation=()',
  'usb=()',
  'serial=()',
  'hid=()',
  'midi=()',
  'magnetometer=()',
  'gyroscope=()',
  'accelerometer=()',
  'display-capture=()',
  'browsing-topics=()',
].join(', ');

/** The whole HTTP application, without listening (tests call it with app.inject). */
export async function buildApp(config: AppConfig, deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      config.logLevel === 'silent'
        ? false
        : {
            level: config.logLevel,
            redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
          },
    bodyLimit: 1024 * 1024,
    // A hop count (0 = the socket's address) or the proxies' addresses: never every X-Forwarded-For.
    trustProxy:
      typeof config.trustProxy === 'number'
        ? config.trustProxy > 0 && ((_address: string, hop: number) => hop < (config.trustProxy as number))
        : config.trustProxy,
    connectionTimeout: 30_000,
    requestTimeout: 30_000,
    // Node's own defaults would let slow headers live 60 s (headersTimeout) and check the clocks only
    // every 30 s (connectionsCheckingInterval): a request trickling in was cut after up to 60–90 s.
    http: { headersTimeout: 30_000, requestTimeout: 30_000, connectionsCheckingInterval: 1_000 },
    return503OnClosing: true,
    frameworkErrors: sendFrameworkError,
    clientErrorHandler: handleClientError,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('config', config);
  app.decorate('database', deps.database);
  app.decorate('db', deps.database.db);
  app.decorate('taxPapers', new TaxPaperPort());
  installErrorHandler(app);
  documentErrorResponses(app);
  app.addHook('preValidation', rejectNulCharacters);
  await registerRateLimits(app, config.rateLimit);

  await app.register(fastifyHelmet, {
    contentSecurityPolicy: contentSecurityPolicy(config),
    hsts: config.env === 'production' ? { maxAge: 31536000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
    // The same as the CSP's frame-ancestors 'none' for browsers that know only this header (decision 017).
    frameguard: { action: 'deny' },
  });
  // No powerful browser feature for the shop or anything it embeds (helmet does not send this header).
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('Permissions-Policy', PERMISSIONS_POLICY);
  });
  await app.register(fastifyCompress, { threshold: 1024 });
  await app.register(fastifyCookie);
  await app.register(csrfPlugin);

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Tienda de laboratorio — API',
        description:
          'API HTTP de la tienda. Errores: { error: { code, message, fields? } } con mensajes en español.',
        version: '1.0.0',
      },
    },
    transform: jsonSchemaTransform,
  });
  if (config.apiDocs) {
    await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });
    app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  }

  // Before any route: every /api/admin route must name its permission and gets its check (decision 064).
  guardAdminRoutes(app);
  // First of the routes: its onResponse hook times every request after it (by route pattern).
  await app.register(metricsPlugin, { token: config.metricsToken });
  await app.register(healthRoutes);
  await app.register(catalogRoutes);
  await app.register(documentRoutes);
  await app.register(seoRoutes);
  await app.register(authRoutes);
  await app.register(accountRoutes);
  if (config.env !== 'production') await app.register(devMailRoutes);
  await app.register(cartRoutes);
  await app.register(listRoutes);
  await app.register(paymentsPlugin, { gateway: deps.paymentGateway, reports: chargeReports(app) });
  await app.register(checkoutRoutes);
  await app.register(ordersRoutes);
  await app.register(shipmentShopperRoutes);
  await app.register(invoiceRoutes);
  await app.register(creditRoutes);
  await app.register(quotationRoutes);
  await app.register(requisitionRoutes);
  await app.register(institutionRoutes);
  await app.register(staffRoutes);
  await app.register(adminRoutes);
  await app.register(returnsRoutes);
  await app.register(stockAlertRoutes);
  // Made here, started by main.ts (startBackgroundJobs): buildApp alone runs no timer.
  app.decorate('jobs', createJobRegistry(app));
  app.addHook('onClose', async () => app.jobs.stop());

  if (config.clientDir) {
    await app.register(spaPlugin, {
      clientDir: config.clientDir,
      publicUrl: config.publicUrl,
      renders: new RenderBudget(config.pageRendersPerMinute),
    });
  } else {
    app.setNotFoundHandler((_request, reply) => sendNotFound(reply));
  }
  return app;
}

import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyCompress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import { errorBody, loadEnglishMessages } from '@portal/contract';
import { sql } from 'drizzle-orm';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from 'fastify';
import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';
import { type Clock, systemClock } from './lib/clock.ts';
import { CsrfTokens } from './lib/csrf.ts';
import { errSerializer, reqSerializer, resSerializer } from './lib/log-safety.ts';
import { logDestination } from './lib/log-stream.ts';
import { createMailer, type Mailer } from './lib/mailer.ts';
import { setHashCost, setHashLimits } from './lib/passwords.ts';
import { portalConfigOf } from './lib/portal-config.ts';
import { loadWebPages, type WebPages } from './lib/web-pages.ts';
import { adminPlugin } from './modules/admin/admin.routes.ts';
import { adminCustomersPlugin } from './modules/admin-customers/admin-customers.routes.ts';
import { adminOverviewPlugin } from './modules/admin-overview/admin-overview.routes.ts';
import { adminReleasesPlugin } from './modules/admin-releases/admin-releases.routes.ts';
import { assetsPlugin } from './modules/assets/assets.routes.ts';
import type { ArtifactStore } from './modules/assets/assets.store.ts';
import { authPlugin } from './modules/auth/auth.routes.ts';
import { eventsPlugin } from './modules/events/events.routes.ts';
import { flexibleLicensePlugin } from './modules/flexible-license/flexible-license.routes.ts';
import { licensePlugin } from './modules/license/license.routes.ts';
import { operatorPlugin } from './modules/operator/operator.routes.ts';
import { paymentPlugin } from './modules/payment/payment.routes.ts';
import { planReviewPlugin } from './modules/payment/plan-review.routes.ts';
import { sandboxPlugin } from './modules/payment/sandbox.routes.ts';
import { sandboxBillingPlugin } from './modules/payment/sandbox-billing.routes.ts';
import { stripeWebhookPlugin } from './modules/payment/stripe-webhook.routes.ts';
import { privacyPlugin } from './modules/privacy/privacy.routes.ts';
import { changedAnything } from './modules/retention/retention.service.ts';
import { robotsPlugin } from './modules/robots/robots.routes.ts';
import { securityPlugin as securityRoutesPlugin } from './modules/security/security.routes.ts';
import { supportPlugin } from './modules/support/support.routes.ts';
import { supportAdminPlugin } from './modules/support/support-admin.routes.ts';
import { timePlugin } from './modules/time/time.routes.ts';
import { useractionPlugin } from './modules/useraction/useraction.routes.ts';
import { actionsPlugin } from './plugins/actions.ts';
import { errorsPlugin } from './plugins/errors.ts';
import { metricsRoutes, PortalMetrics } from './plugins/metrics.ts';
import { securityPlugin } from './plugins/security.ts';
import { sessionsPlugin } from './plugins/sessions.ts';
import { buildServices, type RouteOptions, type Services } from './services.ts';

/** What the app was built from: for tests, the seed and the command line that share its database. */
export interface AppDeps {
  config: Config;
  db: Db;
  clock: Clock;
  mailer: Mailer;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
    services: Services;
    /** Every route the app mounted, as `METHOD /path` (HEAD twins of GETs left out). */
    mountedRoutes: readonly string[];
    /** Set when a shutdown begins (lib/shutdown.ts): /readyz answers 503 and connections are not kept alive. */
    draining: boolean;
    /** This app's metrics (plugins/metrics.ts): /metrics reads them, server.ts's METRICS_PORT listener too. */
    metrics: PortalMetrics;
  }
}

/** Answers smaller than this go uncompressed: the saving would not pay for the work. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

export interface BuildOptions {
  config: Config;
  database: Database;
  clock?: Clock;
  mailer?: Mailer;
  logger?: FastifyServerOptions['logger'];
  /** serve the built web app (off in API tests) */
  serveWeb?: boolean;
  /** where artifact bytes live; the local disk under DATA_DIR by default */
  store?: ArtifactStore;
}

/** One buffered stdout for every app of the process. */
let stdoutLog: ReturnType<typeof logDestination> | undefined;
const sharedStdout = () => {
  stdoutLog ??= logDestination();
  return stdoutLog;
};

export const loggerOptions = (level: string): FastifyServerOptions['logger'] => ({
  level,
  stream: sharedStdout(),
  serializers: SAFE_SERIALIZERS,
});

/**
 * A failed query is logged by its SQL state and statement, never its parameters; a request by its
 * method, path and address, an answer by its status, never their headers or query strings
 * (lib/log-safety.ts). What these write holds no secret, so no redaction pass runs over each line.
 * buildApp puts them on any logger options it is given.
 */
const SAFE_SERIALIZERS = { err: errSerializer, req: reqSerializer, res: resSerializer };

function withSafeSerializers(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (!logger || typeof logger !== 'object') return logger;
  return Object.assign({}, logger, { serializers: Object.assign({}, logger.serializers, SAFE_SERIALIZERS) });
}

/** A hop count trusts that many proxies nearest the server (as proxy-addr counts them); a list is passed as is. */
function trustProxyOption(trust: number | string[]): string[] | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}

const here = dirname(fileURLToPath(import.meta.url));

/**
 * Fastify logs two lines a request at info (received, completed): this writes one, when the answer
 * is sent, or none when LOG_REQUESTS is off. A request that failed is still logged, at error.
 */
class OneLinePerRequest extends LogController {
  constructor(private readonly everyRequest: boolean) {
    super();
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) super.requestCompleted(error, request, reply);
    else if (this.everyRequest)
      reply.log.info({ req: request, res: reply, responseTime: Math.round(reply.elapsedTime * 10) / 10 }, 'request');
  }
}

/** Builds the whole server; never listens (server.ts does). */
export async function buildApp(opts: BuildOptions): Promise<FastifyInstance> {
  const { config, database } = opts;
  const clock = opts.clock ?? systemClock;
  // The 400s name the rule in zod's English ("Too big: ...", docs/decisions/036).
  loadEnglishMessages();
  setHashCost({ memoryCost: config.ARGON2_MEMORY_KIB, timeCost: config.ARGON2_TIME_COST });
  setHashLimits({ concurrency: config.HASH_CONCURRENCY, queue: config.HASH_QUEUE_MAX });
  const app = Fastify({
    logger: withSafeSerializers(opts.logger ?? loggerOptions(config.LOG_LEVEL)),
    logController: new OneLinePerRequest(config.LOG_REQUESTS),
    // Only the named proxy's X-Forwarded-For is read (config.ts refuses `true`; docs/decisions/026).
    // Its X-Forwarded-Host too, but only with TRUST_FORWARDED_HOST: the security plugin drops it otherwise.
    ...(config.TRUST_PROXY === false ? {} : { trustProxy: trustProxyOption(config.TRUST_PROXY) }),
    bodyLimit: config.BODY_LIMIT_BYTES,
    genReqId: () => crypto.randomUUID(),
    // A request the server has read is answered in full even while it shuts down (lib/shutdown.ts).
    return503OnClosing: false,
    // Errors Fastify meets before routing (a malformed URL) get the contract's error object too.
    frameworkErrors: (err, _request, reply) => {
      (reply as unknown as FastifyReply).status(400).send(errorBody('VALIDATION', `url: ${err.message}`));
    },
  });

  // Recorded from the start, so the list covers every plugin's routes: the contract-coverage test
  // compares it with the contract's services table.
  const mountedRoutes: string[] = [];
  app.decorate('mountedRoutes', mountedRoutes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) if (method !== 'HEAD') mountedRoutes.push(`${method} ${route.url}`);
  });

  const mailer =
    opts.mailer ??
    createMailer({
      smtpUrl: config.SMTP_URL,
      from: config.MAIL_FROM,
      outboxDir: join(config.dataDir, 'outbox'),
      log: app.log,
      logLinks: config.NODE_ENV !== 'production',
    });
  const db = database.db;
  // One registry per app (tests build many in a process); Node's own figures only where they are read.
  const metrics = new PortalMetrics({ hashQueueMax: config.HASH_QUEUE_MAX });
  if (config.METRICS_TOKEN || config.METRICS_PORT) metrics.collectProcessMetrics();
  const services = buildServices({
    config,
    db,
    clock,
    mailer,
    log: app.log,
    listen: database.listen,
    metrics,
    ...(opts.store ? { store: opts.store } : {}),
  });
  app.decorate('deps', { config, db, clock, mailer });
  app.decorate('services', services);
  metrics.watch({
    openStreams: () => services.events.openStreams,
    backgroundPending: () => services.afterAnswer.pending,
    overdueSubscriptions: () => services.subscriptions.overdue(),
    outboxFailing: () => services.outbox.failing(),
    reconciliationUnexplained: async () => (await services.billing.reconciliation.last())?.unexplained,
  });
  app.decorate('metrics', metrics);

  // docs/decisions/027: the retention job prunes expired rows (sessions, tokens, counters) and
  // anonymises what is past the privacy policy's two years. An advisory lock makes one instance run
  // it; off the request path, and unref'd so a forgotten app never keeps the process alive.
  const retention = config.RETENTION_INTERVAL_S
    ? setInterval(() => {
        services.retention
          .run()
          .then((run) => {
            metrics.jobRun('retention', true);
            if (changedAnything(run)) app.log.info({ run }, 'retention run');
          })
          .catch((err: unknown) => {
            metrics.jobRun('retention', false);
            app.log.warn({ err }, 'retention run failed');
          });
      }, config.RETENTION_INTERVAL_S * 1000)
    : undefined;
  retention?.unref();
  // docs/decisions/019: the subscription lifecycle job (sandbox renewals and expiries, reminders).
  // Every step is keyed or conditional, so instances running it at once do each thing once.
  const lifecycle = config.LIFECYCLE_INTERVAL_S
    ? setInterval(() => {
        services.billing
          .runLifecycle()
          .then((run) => {
            metrics.jobRun('lifecycle', true);
            for (const [change, n] of Object.entries(run)) if (n > 0) metrics.lifecycleChanges.inc({ change }, n);
            if (run.renewed + run.payment_failed + run.ended + run.reminders > 0)
              app.log.info({ run }, 'lifecycle run');
          })
          .catch((err: unknown) => {
            metrics.jobRun('lifecycle', false);
            app.log.warn({ err }, 'lifecycle run failed');
          });
        // docs/decisions/066: work after commits (cancelling replaced plans at the provider), retried
        // with backoff; each row is claimed before its call, so instances running it at once call once.
        services.outbox
          .run()
          .then((run) => {
            metrics.jobRun('outbox', true);
            if (run.done + run.failed > 0) app.log.info({ run }, 'outbox run');
          })
          .catch((err: unknown) => {
            metrics.jobRun('outbox', false);
            app.log.warn({ err }, 'outbox run failed');
          });
      }, config.LIFECYCLE_INTERVAL_S * 1000)
    : undefined;
  lifecycle?.unref();
  // docs/decisions/067: robots whose hub went silent are announced as Inactive to the pages watching.
  const robotSweep = config.ROBOT_SWEEP_INTERVAL_S
    ? setInterval(() => {
        services.robots
          .sweepSilent()
          .then(() => metrics.jobRun('robot-silence', true))
          .catch((err: unknown) => {
            metrics.jobRun('robot-silence', false);
            app.log.warn({ err }, 'robot silence sweep failed');
          });
      }, config.ROBOT_SWEEP_INTERVAL_S * 1000)
    : undefined;
  robotSweep?.unref();
  // docs/decisions/065: the nightly reconciliation with Stripe (nothing to do on the sandbox). An
  // advisory lock makes one instance run it; what it cannot explain is logged at error.
  const reconciliation =
    config.RECONCILIATION_INTERVAL_S && services.payments.provider.kind === 'stripe'
      ? setInterval(() => {
          services.billing.reconciliation
            .run()
            .then((run) => {
              metrics.jobRun('reconciliation', true);
              if (!run.skipped)
                app.log.info({ repaired: run.repaired, unexplained: run.unexplained }, 'reconciliation run');
            })
            .catch((err: unknown) => {
              metrics.jobRun('reconciliation', false);
              app.log.error({ err }, 'reconciliation run failed');
            });
        }, config.RECONCILIATION_INTERVAL_S * 1000)
      : undefined;
  reconciliation?.unref();
  app.addHook('onClose', async () => {
    if (retention) clearInterval(retention);
    if (lifecycle) clearInterval(lifecycle);
    if (robotSweep) clearInterval(robotSweep);
    if (reconciliation) clearInterval(reconciliation);
    // Mails queued after an answer (forgot password, registration) go before the database closes.
    await services.afterAnswer.settled();
  });

  // Cross-cutting plugins first (each declares what it needs), then one plugin per service.
  await app.register(errorsPlugin);
  // Before every route: its hooks count each answer. /metrics on PORT only without a port of its own.
  await app.register(metricsRoutes, {
    metrics,
    token: config.METRICS_TOKEN,
    route: config.METRICS_PORT === undefined,
  });
  // Answers over 1 KB go compressed to a caller that accepts it (brotli first, then gzip); the web
  // app's files are compressed at build time instead (serveWeb below). docs/decisions/025.
  await app.register(fastifyCompress, {
    global: true,
    threshold: COMPRESS_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
  });
  // The web app's pages are read first: their inline scripts' hashes go into the CSP.
  const webRoot = resolve(config.WEB_DIST ?? join(here, '../../web/dist'));
  const web = opts.serveWeb ? loadWebPages(webRoot, portalConfigOf(config)) : undefined;
  await app.register(securityPlugin, {
    scriptHashes: web?.scriptHashes ?? [],
    csrf: new CsrfTokens(config.JWT_SECRET),
    csrfPrevious: config.JWT_SECRET_PREVIOUS ? new CsrfTokens(config.JWT_SECRET_PREVIOUS) : undefined,
    clock,
    publicUrl: config.PUBLIC_URL,
    allowedHosts: config.ALLOWED_HOSTS,
    hostAliases: config.hostAliases,
    trustForwardedHost: config.TRUST_FORWARDED_HOST,
    reportOrigin: config.SENTRY_DSN ? new URL(config.SENTRY_DSN).origin : undefined,
  });
  await app.register(sessionsPlugin, { sessions: services.sessions });
  await app.register(actionsPlugin, {
    identifyKey: (secret, compare) => services.staff.identify(secret, compare),
    onRefused: (key, action, permission, ip) =>
      services.audit.recordAlone({
        actor: { kind: 'key', id: key.id },
        kind: 'security',
        action: 'operator.refused',
        target: action,
        personal: { ip, permission, role: key.role },
      }),
    onStaffRefused: (staff, action, permission, ip) =>
      services.audit.recordAlone({
        actor: staff.kind === 'staff' ? { kind: 'staff', id: staff.userId } : { kind: 'key', id: staff.key.id },
        kind: 'security',
        action: 'staff.refused',
        target: action,
        personal: { ip, permission, role: staff.role },
      }),
  });

  // While draining, every answer closes its connection, so no client keeps a socket the server is about to close.
  app.decorate('draining', false);
  app.addHook('onRequest', (_request, reply, done) => {
    if (app.draining) reply.header('connection', 'close');
    done();
  });

  app.get('/healthz', async () => ({ status: 'ok' }));
  // Storage is reported, never waited on and never a 503: an instance taken out of the load balancer
  // for a storage outage would stop serving everything else too (docs/decisions/059).
  app.get('/readyz', async (_req, reply) => {
    const storage = services.assets.store.readiness();
    if (app.draining) return reply.status(503).send({ status: 'draining', database: database.kind, storage });
    try {
      await db.execute(sql`select 1`);
      return { status: 'ready', database: database.kind, storage };
    } catch {
      return reply.status(503).send({ status: 'unavailable', database: database.kind, storage });
    }
  });

  const routeOptions: RouteOptions = { config, services };
  for (const routes of [
    useractionPlugin,
    authPlugin,
    supportPlugin,
    privacyPlugin,
    licensePlugin,
    robotsPlugin,
    timePlugin,
    flexibleLicensePlugin,
    assetsPlugin,
    operatorPlugin,
    paymentPlugin,
    sandboxPlugin,
    sandboxBillingPlugin,
    planReviewPlugin,
    stripeWebhookPlugin,
    securityRoutesPlugin,
    eventsPlugin,
    adminPlugin,
    supportAdminPlugin,
    adminCustomersPlugin,
    adminReleasesPlugin,
    adminOverviewPlugin,
  ])
    await app.register(routes, routeOptions);

  if (opts.serveWeb) {
    if (web) await serveWeb(app, webRoot, web);
    else app.log.warn({ root: webRoot }, 'web app not built; run npm run build');
  }
  return app;
}

/**
 * The built single-page app: hashed assets cached for ever, every other GET answered by an HTML
 * page (index.html, or the page the build prerendered for that address: docs/decisions/038).
 * The build writes a brotli and a gzip copy next to each file over 1 KB (apps/web/vite-plugins.ts);
 * the copy the browser accepts is sent as is (`Vary: Accept-Encoding`), else the file itself.
 */
async function serveWeb(app: FastifyInstance, root: string, web: WebPages) {
  await app.register(fastifyStatic, {
    root,
    // No routes of its own: the route below answers every file, so /index.html too gets the configuration.
    serve: false,
    index: false,
    preCompressed: true,
    setHeaders(res, path) {
      res.header('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  // Files answer from disk, compressed at build time; the pages were compressed once at start
  // (lib/web-pages.ts): nothing here is compressed per request.
  app.get('/*', { compress: false }, async (request, reply) => {
    const [path = '/', query = ''] = request.url.split('?', 2);
    if (path.startsWith('/api/')) return reply.callNotFound();
    const file = path.slice(1);
    if (
      file &&
      file !== 'index.html' &&
      !file.startsWith('.') &&
      !file.includes('..') &&
      existsSync(join(root, file)) &&
      !file.endsWith('/')
    )
      return reply.sendFile(file);
    const page = web.pageFor(path, query, request.headers.cookie);
    reply
      .header('cache-control', 'no-cache')
      .header('vary', page.byCookie ? 'accept-encoding, cookie' : 'accept-encoding');
    reply.type('text/html; charset=utf-8');
    const encoding = preferredEncoding(request.headers['accept-encoding']);
    if (!encoding || page.body.length < COMPRESS_THRESHOLD_BYTES) return reply.send(page.body);
    return reply.header('content-encoding', encoding).send(page[encoding]);
  });
}

/** The encoding to answer with: brotli over gzip unless the caller weighs gzip higher; none without either. */
export function preferredEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | undefined {
  const weights = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    weights.set(name, q ? Number(q.slice(2)) || 0 : 1);
  }
  const weight = (name: string) => weights.get(name) ?? (weights.has('*') ? (weights.get('*') ?? 0) : 0);
  const br = weight('br');
  const gzip = weight('gzip');
  if (br <= 0 && gzip <= 0) return undefined;
  return br >= gzip ? 'br' : 'gzip';
}

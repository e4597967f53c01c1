import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import { errorBody } from '@portal/contract';
import { sql } from 'drizzle-orm';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';
import { type Clock, systemClock } from './lib/clock.ts';
import { CsrfTokens } from './lib/csrf.ts';
import { createMailer, type Mailer } from './lib/mailer.ts';
import { setHashCost } from './lib/passwords.ts';
import { RateLimiter } from './lib/rate-limit.ts';
import { TokenService } from './lib/tokens.ts';
import { assetsRoutes } from './modules/assets/assets.routes.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { Sessions } from './modules/auth/auth.sessions.ts';
import { licenseRoutes } from './modules/license/license.routes.ts';
import { operatorRoutes } from './modules/operator/operator.routes.ts';
import { robotsRoutes } from './modules/robots/robots.routes.ts';
import { supportRoutes } from './modules/support/support.routes.ts';
import { timeRoutes } from './modules/time/time.routes.ts';
import { useractionRoutes } from './modules/useraction/useraction.routes.ts';
import { installErrorHandler } from './plugins/actions.ts';
import { installSecurity } from './plugins/security.ts';

export interface AppDeps {
  config: Config;
  database: Database;
  db: Db;
  clock: Clock;
  mailer: Mailer;
  limiter: RateLimiter;
  sessions: Sessions;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
    sessions: Sessions;
    tokens: TokenService;
  }
}

export interface BuildOptions {
  config: Config;
  database: Database;
  clock?: Clock;
  mailer?: Mailer;
  logger?: FastifyServerOptions['logger'];
  /** serve the built web app (off in API tests) */
  serveWeb?: boolean;
}

export const loggerOptions = (level: string): FastifyServerOptions['logger'] => ({
  level,
  redact: {
    paths: [
      'req.headers.authorization',
      'req.headers["x-csrf-token"]',
      'req.headers.cookie',
      'res.headers["x-csrf-token"]',
    ],
    censor: '[redacted]',
  },
});

const here = dirname(fileURLToPath(import.meta.url));

/** Builds the whole server; never listens (server.ts does). */
export async function buildApp(opts: BuildOptions): Promise<FastifyInstance> {
  const { config, database } = opts;
  const clock = opts.clock ?? systemClock;
  setHashCost({ memoryCost: config.ARGON2_MEMORY_KIB, timeCost: config.ARGON2_TIME_COST });
  const app = Fastify({
    logger: opts.logger ?? loggerOptions(config.LOG_LEVEL),
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 256 * 1024,
    genReqId: () => crypto.randomUUID(),
    // Errors Fastify meets before routing (a malformed URL) get the contract's error object too.
    frameworkErrors: (err, _request, reply) => {
      (reply as unknown as FastifyReply).status(400).send(errorBody('VALIDATION', `url: ${err.message}`));
    },
  });

  const tokens = new TokenService(config.JWT_SECRET, clock, config.ACCESS_TOKEN_TTL_S, config.REFRESH_TOKEN_TTL_S);
  const sessions = new Sessions(database.db, tokens, clock, config.REFRESH_REUSE_GRACE_S);
  const mailer =
    opts.mailer ??
    createMailer({
      smtpUrl: config.SMTP_URL,
      from: config.MAIL_FROM,
      outboxDir: join(config.dataDir, 'outbox'),
      log: app.log,
      logLinks: config.NODE_ENV !== 'production',
    });
  const deps: AppDeps = {
    config,
    database,
    db: database.db,
    clock,
    mailer,
    limiter: new RateLimiter(database.db, clock),
    sessions,
  };
  app.decorate('deps', deps);
  app.decorate('sessions', sessions);
  app.decorate('tokens', tokens);

  installErrorHandler(app);
  installSecurity(app, {
    csrf: new CsrfTokens(config.JWT_SECRET),
    clock,
    publicUrl: config.PUBLIC_URL,
    reportOrigin: config.SENTRY_DSN ? new URL(config.SENTRY_DSN).origin : undefined,
  });

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_req, reply) => {
    try {
      await database.db.execute(sql`select 1`);
      return { status: 'ready', database: database.kind };
    } catch {
      return reply.status(503).send({ status: 'unavailable', database: database.kind });
    }
  });

  await app.register(useractionRoutes);
  await app.register(authRoutes);
  await app.register(supportRoutes);
  await app.register(licenseRoutes);
  await app.register(robotsRoutes);
  await app.register(timeRoutes);
  await app.register(assetsRoutes);
  await app.register(operatorRoutes);

  if (opts.serveWeb) await serveWeb(app, config);
  return app;
}

/** The built single-page app: hashed assets cached for ever, every other GET answered by index.html. */
async function serveWeb(app: FastifyInstance, config: Config) {
  const root = resolve(config.WEB_DIST ?? join(here, '../../web/dist'));
  if (!existsSync(join(root, 'index.html'))) {
    app.log.warn({ root }, 'web app not built; run npm run build');
    return;
  }
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: false,
    setHeaders(res, path) {
      res.header('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  app.get('/*', async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    if (path.startsWith('/api/')) return reply.callNotFound();
    const file = path.slice(1);
    if (file && !file.includes('..') && existsSync(join(root, file)) && !file.endsWith('/'))
      return reply.sendFile(file);
    reply.header('cache-control', 'no-cache');
    return reply.type('text/html').sendFile('index.html');
  });
}

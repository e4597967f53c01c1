import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, EVENT_STREAM_PATH } from '@portal/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { safeEqual } from '../lib/keys.ts';
import type { Mailer } from '../lib/mailer.ts';
import { hashGate } from '../lib/passwords.ts';
import { STRIPE_WEBHOOK_EVENTS } from '../modules/payment/stripe-events.ts';

/**
 * The portal's metrics in the Prometheus text format (docs/operations.md#metrics, docs/decisions/060).
 * One registry per app: tests build many apps in one process, and each counts only its own.
 * Every label takes a bounded set of values (routes, actions of the contract, job and operation
 * names written in the code); nothing a caller sends becomes a label as it is.
 */

export const METRICS_PATH = '/metrics';

/** The action label of a body that names no action the service answers (bounded cardinality). */
export const UNKNOWN_ACTION = 'unknown';

/** Stripe's events the portal acts on (docs/operations.md#payments-the-sandbox-and-stripe); others count as `other`. */
const WEBHOOK_TYPES = new Set<string>(STRIPE_WEBHOOK_EVENTS);

/** handled; duplicate: an event id seen before; stale: older than the state applied for its subscription; refused: no valid signature; failed: handling threw (Stripe retries). */
export type WebhookOutcome = 'handled' | 'duplicate' | 'stale' | 'refused' | 'failed';

/** What the gauges read when scraped: the app's services, set once they are built. */
export interface MetricSources {
  openStreams(): number;
  /** work queued after answers (mails whose sending time must not show) */
  backgroundPending(): number;
  /** live subscriptions whose period has ended, not yet renewed, failed or ended */
  overdueSubscriptions(): Promise<number>;
  /** outbox work that keeps failing (docs/decisions/066) */
  outboxFailing?(): Promise<number>;
  /** differences with Stripe the last reconciliation could not explain (undefined: no run yet) */
  reconciliationUnexplained?(): Promise<number | undefined>;
}

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export class PortalMetrics {
  readonly registry = new Registry();
  private sources: MetricSources | undefined;
  private mailsInFlight = 0;
  private readonly registers = [this.registry];

  readonly requests = new Counter({
    name: 'portal_http_requests_total',
    help: 'Answered requests by route (service), action and status',
    labelNames: ['service', 'action', 'status'] as const,
    registers: this.registers,
  });

  readonly requestSeconds = new Histogram({
    name: 'portal_http_request_duration_seconds',
    help: 'Time to answer a request, by route (service) and action (event streams left out)',
    labelNames: ['service', 'action'] as const,
    buckets: LATENCY_BUCKETS,
    registers: this.registers,
  });

  readonly hashBusy = new Counter({
    name: 'portal_hash_busy_total',
    help: 'Answers 503 BUSY: a password hash found the hashing queue full (HASH_QUEUE_MAX)',
    registers: this.registers,
  });

  readonly webhookEvents = new Counter({
    name: 'portal_webhook_events_total',
    help: 'Stripe webhook calls by event type and outcome (refused: the signature did not verify; failed: Stripe retries)',
    labelNames: ['type', 'outcome'] as const,
    registers: this.registers,
  });

  readonly mails = new Counter({
    name: 'portal_mail_total',
    help: 'Mails handed to SMTP (or the outbox folder) by outcome',
    labelNames: ['outcome'] as const,
    registers: this.registers,
  });

  readonly backgroundFailures = new Counter({
    name: 'portal_background_task_failures_total',
    help: 'Work after an answer that failed (mostly mails), by task',
    labelNames: ['task'] as const,
    registers: this.registers,
  });

  readonly jobRuns = new Counter({
    name: 'portal_job_runs_total',
    help: 'Runs of the scheduled jobs (lifecycle, retention, robot-silence, outbox, reconciliation) by outcome',
    labelNames: ['job', 'outcome'] as const,
    registers: this.registers,
  });

  readonly jobLastSuccess = new Gauge({
    name: 'portal_job_last_success_timestamp_seconds',
    help: 'When each scheduled job last ran to the end, in seconds since the epoch (absent until it has)',
    labelNames: ['job'] as const,
    registers: this.registers,
  });

  readonly lifecycleChanges = new Counter({
    name: 'portal_lifecycle_changes_total',
    help: 'What the subscription lifecycle job did: renewed, payment_failed, ended, reminders',
    labelNames: ['change'] as const,
    registers: this.registers,
  });

  readonly storageErrors = new Counter({
    name: 'portal_storage_errors_total',
    help: 'Calls to the artifact store (S3 or the disk) that failed, by operation',
    labelNames: ['operation'] as const,
    registers: this.registers,
  });

  readonly providerErrors = new Counter({
    name: 'portal_payment_provider_errors_total',
    help: 'Calls to the payment provider (Stripe or the sandbox) that failed, by provider and operation',
    labelNames: ['provider', 'operation'] as const,
    registers: this.registers,
  });

  constructor(opts: { hashQueueMax: number }) {
    const metrics = this;
    new Gauge({
      name: 'portal_hash_queue_depth',
      help: 'Password hashes waiting for a hashing thread',
      registers: this.registers,
      collect() {
        this.set(hashGate().load.waiting);
      },
    });
    new Gauge({
      name: 'portal_hash_running',
      help: 'Password hashes handed to the hashing threads (each thread holds the one it hashes and the next)',
      registers: this.registers,
      collect() {
        this.set(hashGate().load.running);
      },
    });
    new Gauge({
      name: 'portal_hash_queue_limit',
      help: 'HASH_QUEUE_MAX: past this many waiting, a sign-in answers BUSY',
      registers: this.registers,
    }).set(opts.hashQueueMax);
    new Gauge({
      name: 'portal_event_streams_open',
      help: 'Live event streams this instance holds open',
      registers: this.registers,
      collect() {
        if (metrics.sources) this.set(metrics.sources.openStreams());
      },
    });
    new Gauge({
      name: 'portal_mail_pending',
      help: 'Mails being sent now plus work queued after answers (the mail backlog)',
      registers: this.registers,
      collect() {
        this.set(metrics.mailsInFlight + (metrics.sources?.backgroundPending() ?? 0));
      },
    });
    // Gauges read from the database at scrape time. One that does not answer must not take the
    // whole scrape with it: its gauge is absent then (as it is before there is anything to read).
    const fromDatabase = (
      name: string,
      help: string,
      read: (sources: MetricSources) => Promise<number | undefined> | undefined,
    ) =>
      new Gauge({
        name,
        help,
        registers: this.registers,
        async collect() {
          this.reset();
          if (!metrics.sources) return;
          try {
            const n = await read(metrics.sources);
            if (n !== undefined) this.set(n);
          } catch {
            // absent, as said above
          }
        },
      });
    fromDatabase(
      'portal_subscriptions_overdue',
      'Live subscriptions past their period end: the lifecycle job (sandbox) or Stripe webhooks have yet to move them on',
      (sources) => sources.overdueSubscriptions(),
    );
    fromDatabase(
      'portal_outbox_failing',
      'Work after a commit at the payment provider (cancelling a replaced plan) that has failed 5 times or more and is still retried: see ListOutbox',
      (sources) => sources.outboxFailing?.(),
    );
    fromDatabase(
      'portal_reconciliation_unexplained',
      'Differences with Stripe the last reconciliation could not explain (docs/decisions/065); absent before the first run',
      (sources) => sources.reconciliationUnexplained?.(),
    );
  }

  /** The services the gauges read, once built. */
  watch(sources: MetricSources): void {
    this.sources = sources;
  }

  /** Node's own figures (CPU, memory, event-loop delay, GC): only for an app whose metrics are read. */
  collectProcessMetrics(): void {
    collectDefaultMetrics({ register: this.registry });
  }

  webhookEvent(type: string | undefined, outcome: WebhookOutcome): void {
    const label = type === undefined ? 'unverified' : WEBHOOK_TYPES.has(type) ? type : 'other';
    this.webhookEvents.inc({ type: label, outcome });
  }

  /** A scheduled job's run: its outcome, and when it last succeeded. */
  jobRun(job: 'lifecycle' | 'retention' | 'robot-silence' | 'outbox' | 'reconciliation', ok: boolean): void {
    this.jobRuns.inc({ job, outcome: ok ? 'ok' : 'failed' });
    if (ok) this.jobLastSuccess.set({ job }, Date.now() / 1000);
  }

  /** The mailer, counting what it sends and what fails. */
  countingMails(mailer: Mailer): Mailer {
    const metrics = this;
    return {
      mode: mailer.mode,
      async send(mail) {
        metrics.mailsInFlight += 1;
        try {
          await mailer.send(mail);
          metrics.mails.inc({ outcome: 'sent' });
        } catch (err) {
          metrics.mails.inc({ outcome: 'failed' });
          throw err;
        } finally {
          metrics.mailsInFlight -= 1;
        }
      },
    };
  }

  /** The text a scrape reads. */
  async scrape(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}

/**
 * The object with each of its methods counting the calls that reject (a thrown ApiError is an
 * answer to the caller, not a failure of the service behind). Synchronous results pass as they are
 * (a webhook signature that does not verify is no provider error), and so does `instanceof`.
 */
export function countingRejections<T extends object>(target: T, count: (operation: string) => void): T {
  return new Proxy(target, {
    get(object, key) {
      const value: unknown = Reflect.get(object, key, object);
      if (typeof value !== 'function' || typeof key !== 'string' || key === 'constructor') return value;
      return (...args: unknown[]) => {
        const result: unknown = Reflect.apply(value, object, args);
        if (!(result instanceof Promise)) return result;
        return result.catch((err: unknown) => {
          if (!(err instanceof ApiError)) count(key);
          throw err;
        });
      };
    },
  });
}

/** The action each request named, as the router resolved it (plugins/actions.ts). */
const actions = new WeakMap<FastifyRequest, string>();

/** The router tells which action a request is: its name or UNKNOWN_ACTION. */
export function labelAction(request: FastifyRequest, action: string): void {
  actions.set(request, action);
}

/** Whether a scraper's Authorization header carries the token (compared in constant time). */
export function bearerMatches(header: string | string[] | undefined, token: string): boolean {
  const value = Array.isArray(header) ? header[0] : header;
  const match = /^bearer\s+(\S+)\s*$/i.exec(value ?? '');
  return match !== null && safeEqual(match[1] as string, token);
}

export interface MetricsOptions {
  metrics: PortalMetrics;
  /** the bearer token; /metrics on the app's port needs it */
  token: string | undefined;
  /** serve /metrics on the app's own port (METRICS_TOKEN set and no METRICS_PORT) */
  route: boolean;
}

/**
 * Counts every answered request by route and action, and BUSY answers; serves /metrics on the
 * app's port when told to (behind the bearer token). Not encapsulated: its hooks see every route.
 */
async function metricsPlugin(app: FastifyInstance, opts: MetricsOptions): Promise<void> {
  const { metrics } = opts;
  app.addHook('onError', (_request, _reply, error, done) => {
    if (error instanceof ApiError && error.errorName === 'BUSY') metrics.hashBusy.inc();
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    const service = request.routeOptions.url ?? 'unmatched';
    const action = actions.get(request) ?? '';
    metrics.requests.inc({ service, action, status: reply.statusCode });
    // A stream's answer lasts as long as the stream: its time says nothing of the server's speed.
    if (service !== EVENT_STREAM_PATH) metrics.requestSeconds.observe({ service, action }, reply.elapsedTime / 1000);
    done();
  });

  const token = opts.token;
  if (!opts.route || !token) return;
  app.get(METRICS_PATH, { compress: false }, async (request, reply) => {
    if (!bearerMatches(request.headers.authorization, token)) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      throw new ApiError('UNAUTHENTICATED', 'authorization: Bearer METRICS_TOKEN required');
    }
    const { contentType, body } = await metrics.scrape();
    return reply.header('cache-control', 'no-store').type(contentType).send(body);
  });
}

export const metricsRoutes = fp(metricsPlugin, { name: 'metrics', fastify: '5.x', dependencies: ['errors'] });

/**
 * /metrics on a listener of its own (METRICS_PORT), so the portal's public port serves none; only
 * GET /metrics answers, behind the token when one is set. It answers while the app drains, and goes
 * with the process.
 */
export async function listenMetrics(
  metrics: PortalMetrics,
  opts: { port: number; host: string; token: string | undefined },
): Promise<{ server: Server; url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?', 1)[0];
    if (path !== METRICS_PATH || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
      return;
    }
    if (opts.token && !bearerMatches(req.headers.authorization, opts.token)) {
      res
        .writeHead(401, { 'content-type': 'text/plain; charset=utf-8', 'www-authenticate': 'Bearer realm="metrics"' })
        .end('Bearer METRICS_TOKEN required\n');
      return;
    }
    metrics.scrape().then(
      ({ contentType, body }) =>
        res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' }).end(body),
      () => res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('metrics failed\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    server,
    url: `http://${host}:${address.port}${METRICS_PATH}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

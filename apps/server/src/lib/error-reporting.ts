import { TRACE_SAMPLE_RATE } from '@portal/contract';
import type { FastifyInstance } from 'fastify';

/**
 * Error reporting (Sentry) when SENTRY_DSN is set; off otherwise. Loaded lazily so a deployment
 * without it pays nothing at start.
 */
export async function startErrorReporting(app: FastifyInstance, dsn: string | undefined, environment: string) {
  if (!dsn) return;
  const Sentry = await import('@sentry/node');
  Sentry.init({ dsn, environment, tracesSampleRate: TRACE_SAMPLE_RATE, sendDefaultPii: false });
  Sentry.setupFastifyErrorHandler(app);
  app.log.info('error reporting on');
}

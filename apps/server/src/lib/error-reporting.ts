import { TRACE_SAMPLE_RATE } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import { isDatabaseError, safeDatabaseError } from './log-safety.ts';

/**
 * A failed query's message quotes its parameters (an email, a password hash): the report keeps its
 * SQL state and statement only, as the logs do (lib/log-safety.ts).
 */
export function scrubQueryParameters<E extends { exception?: { values?: { value?: string }[] } }>(
  event: E,
  hint?: { originalException?: unknown },
): E {
  const original = hint?.originalException;
  const safe = original !== undefined && isDatabaseError(original) ? safeDatabaseError(original).message : undefined;
  for (const value of event.exception?.values ?? [])
    if (safe || value.value?.startsWith('Failed query:')) value.value = safe ?? 'database error';
  return event;
}

/**
 * Error reporting (Sentry) when SENTRY_DSN is set; off otherwise. Loaded lazily so a deployment
 * without it pays nothing at start.
 */
export async function startErrorReporting(app: FastifyInstance, dsn: string | undefined, environment: string) {
  if (!dsn) return;
  const Sentry = await import('@sentry/node');
  Sentry.init({
    dsn,
    environment,
    tracesSampleRate: TRACE_SAMPLE_RATE,
    sendDefaultPii: false,
    beforeSend: scrubQueryParameters,
  });
  Sentry.setupFastifyErrorHandler(app);
  app.log.info('error reporting on');
}

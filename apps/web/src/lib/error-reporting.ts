import { TRACE_SAMPLE_RATE } from '@portal/contract';
import { env } from '@/config/env';

/** spec/000 §9: error reporting in production with 20% trace sampling; loaded only when configured. */
export function startErrorReporting(): void {
  if (!env.production || !env.sentryDsn) return;
  void import('@sentry/react').then((Sentry) => {
    Sentry.init({
      dsn: env.sentryDsn,
      tracesSampleRate: TRACE_SAMPLE_RATE,
      integrations: [Sentry.browserTracingIntegration()],
    });
  });
}

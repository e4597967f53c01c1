import { ApiError, ErrorCodes, errorBody } from '@portal/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { isDatabaseError, safeDatabaseError } from '../lib/log-safety.ts';
import { providerAnswer, providerFailureOf } from '../modules/payment/provider-failure.ts';

/** The Description of a 4xx Fastify raises itself (body parsing), naming the field like ours do. */
function frameworkDescription(err: Error & { code?: string }): string {
  if (err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err instanceof SyntaxError) return 'body: Malformed JSON';
  if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return 'body: Content-Type must be application/json';
  if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return 'body: Request body is too large';
  if (err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return 'body: Empty JSON body';
  return err.message;
}

/** The error as a log may carry it: a failed query without its parameters (issue 14, finding 7). */
function loggable(err: unknown): Record<string, unknown> {
  return isDatabaseError(err) ? { database: safeDatabaseError(err) } : { err };
}

/**
 * Turns every failure into the contract's error object; a 5xx never carries internals. Registered
 * first and without encapsulation, so hooks and routes of every other plugin answer through it.
 */
async function errorHandling(app: FastifyInstance): Promise<void> {
  app.setErrorHandler((err: Error & { statusCode?: number; code?: string }, request, reply) => {
    if (err instanceof ApiError) {
      if (err.retryAfterS !== undefined) reply.header('retry-after', String(err.retryAfterS));
      // BUSY is the server keeping its own bound (docs/decisions/024), not a failure to report.
      if (err.status >= 500 && err.errorName !== 'BUSY') request.log.error(loggable(err), 'action failed');
      return reply.status(err.status).send(errorBody(err.errorName, err.message));
    }
    // The payment provider's failure (docs/decisions/064): 502 or 503, never Stripe's own 401/403.
    const provider = providerFailureOf(err);
    if (provider) {
      request.log.error({ provider }, 'payment provider failed');
      const answer = providerAnswer(provider, request.id);
      if (answer.retryAfterS !== undefined) reply.header('retry-after', String(answer.retryAfterS));
      return reply.status(answer.status).send(errorBody(answer.errorName, answer.message));
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const name = status === 429 ? 'RATE_LIMITED' : status === 404 ? 'NOT_FOUND' : 'VALIDATION';
      return reply
        .status(status)
        .send({ error: { Success: false, Code: ErrorCodes[name].code, Description: frameworkDescription(err) } });
    }
    request.log.error(loggable(err), 'unhandled error');
    return reply.status(500).send(errorBody('INTERNAL', `Internal server error (request ${request.id})`));
  });

  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send(errorBody('NOT_FOUND', `No route for ${request.method} ${request.url.split('?')[0]}`));
  });
}

export const errorsPlugin = fp(errorHandling, { name: 'errors', fastify: '5.x' });

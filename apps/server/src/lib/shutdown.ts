import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/client.ts';

/**
 * A graceful stop (docs/operations.md#stopping-and-scaling-out), in two steps so tests can watch each:
 *
 * 1. `startDraining`: /readyz answers 503 (load balancers stop sending new requests) and every answer
 *    carries `Connection: close`, while requests are still served.
 * 2. `finishShutdown`: stops listening (new connections are refused), closes idle keep-alive sockets,
 *    waits for every request in flight to be answered in full, closes the database and writes the
 *    log lines still pending.
 */
export function startDraining(app: FastifyInstance): void {
  app.draining = true;
}

export async function finishShutdown(app: FastifyInstance, database: Database): Promise<void> {
  await app.close();
  await database.close();
  await flushLog(app);
}

/**
 * Waits until the log's pending lines are written (lib/log-stream.ts buffers them and writes off the
 * main thread): at exit pino writes what is still pending, but not a write already on its way.
 */
function flushLog(app: FastifyInstance): Promise<void> {
  const log = app.log as { flush?: (done: (err?: Error) => void) => void };
  if (typeof log.flush !== 'function') return Promise.resolve();
  // An error here is the stream's (fsync is refused on a pipe): the lines are written by then.
  return new Promise((resolve) => log.flush?.(() => resolve()));
}

/**
 * How long draining lasts at least, even with no delay configured: closing the listener also closes
 * the idle keep-alive sockets, and a request a client had just written on one would meet a reset.
 * Draining first gives such a request time to arrive and be answered, with `Connection: close`.
 */
export const DRAIN_MIN_MS = 500;

/** Both steps, with `delayS` between them for load balancers to notice the failing readiness check. */
export async function shutDown(app: FastifyInstance, database: Database, delayS: number): Promise<void> {
  startDraining(app);
  await new Promise((resolve) => setTimeout(resolve, Math.max(delayS * 1000, DRAIN_MIN_MS)));
  await finishShutdown(app, database);
}

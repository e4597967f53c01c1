import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/client.ts';

/**
 * A graceful stop (docs/operations.md#stopping-and-scaling-out), in two steps so tests can watch each:
 *
 * 1. `startDraining`: /readyz answers 503 (load balancers stop sending new requests) and every answer
 *    carries `Connection: close`, while requests are still served.
 * 2. `finishShutdown`: stops listening (new connections are refused), closes idle keep-alive sockets,
 *    waits for every request in flight to be answered in full, then closes the database.
 */
export function startDraining(app: FastifyInstance): void {
  app.draining = true;
}

export async function finishShutdown(app: FastifyInstance, database: Database): Promise<void> {
  await app.close();
  await database.close();
}

/** Both steps, with `delayS` between them for load balancers to notice the failing readiness check. */
export async function shutDown(app: FastifyInstance, database: Database, delayS: number): Promise<void> {
  startDraining(app);
  if (delayS > 0) await new Promise((resolve) => setTimeout(resolve, delayS * 1000));
  await finishShutdown(app, database);
}

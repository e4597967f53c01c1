import { type ActionDef, ErrorCodes, isPlannedAction, type ServiceDef, services } from '@portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './db/client.ts';
import { freshDatabase, type TestApp, testApp } from './test/harness.ts';

/**
 * The contract says what is true: every live service of its table is mounted, a planned one is
 * not (mounting it means its marker must go), and nothing under /api answers that the table does
 * not describe, except the routes below that are not actions.
 */
const NOT_ACTIONS: Record<string, string> = {
  'GET /api/useraction': 'the CSRF token of the call protocol, answered in a header',
  'GET /api/assets/download/:id': 'a signed download link the browser follows; its signature is the permission',
  'GET /api/events/stream':
    'the live event stream EventSource opens (text/event-stream); the single-use ticket from OpenEventStream is the permission',
  'POST /api/admin/releases/upload':
    "a hub build's bytes streamed as the body (docs/decisions/076); a staff credential with releases.manage and the CSRF token are the permission",
  'POST /api/stripe/webhook':
    "Stripe's webhook: Stripe calls it, not a browser; its signature over the raw body is the permission",
};

let database: Database;
let t: TestApp;
beforeAll(async () => {
  database = await freshDatabase();
  t = await testApp(database);
});
afterAll(async () => {
  await t.app.close();
  await database.close();
});

const table = Object.entries(services as Record<string, ServiceDef>);

describe('the contract and the mounted routes', () => {
  it.each(table.filter(([, s]) => s.status === 'live'))('mounts the live service %s', (_name, service) => {
    expect(t.app.mountedRoutes).toContain(`POST ${service.path}`);
  });

  it.each(table.filter(([, s]) => s.status === 'planned'))(
    'does not mount the planned service %s (drop its planned marker once it is built)',
    (_name, service) => {
      expect(t.app.mountedRoutes.filter((r) => r.endsWith(` ${service.path}`))).toEqual([]);
    },
  );

  it('mounts nothing under /api that the table does not describe', () => {
    const described = new Set(table.filter(([, s]) => s.status === 'live').map(([, s]) => `POST ${s.path}`));
    const unknown = t.app.mountedRoutes.filter(
      (r) => r.split(' ')[1]?.startsWith('/api/') && !described.has(r) && !Object.hasOwn(NOT_ACTIONS, r),
    );
    expect(unknown).toEqual([]);
  });

  it('allows only routes that exist', () => {
    // A stale entry would quietly allow a route that a later change brings back.
    for (const route of Object.keys(NOT_ACTIONS)) expect(t.app.mountedRoutes).toContain(route);
  });

  const plannedActions = table
    .filter(([, s]) => s.status === 'live')
    .flatMap(([, s]) =>
      Object.entries(s.actions as Record<string, ActionDef>)
        .filter(([, def]) => isPlannedAction(def))
        .map(([name]) => [`${s.path} ${name}`, s.path, name] as const),
    );

  it.each(plannedActions)(
    'answers UNKNOWN_ACTION for the planned action %s (drop its planned marker once it is built)',
    async (_label, path, name) => {
      const res = await t.api.post(path, { action: name });
      expect(res.status).toBe(400);
      expect(res.body.error.Code).toBe(ErrorCodes.UNKNOWN_ACTION.code);
      expect(res.body.error.Description).toMatch(/^action: /);
    },
  );

  it('has one service per path', () => {
    const paths = table.map(([, s]) => s.path);
    expect(new Set(paths).size).toBe(paths.length);
  });
});

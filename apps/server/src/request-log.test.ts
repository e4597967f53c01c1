import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import type { Database } from './db/client.ts';
import { manualClock } from './lib/clock.ts';
import { freshDatabase, memoryMailer, testConfig } from './test/harness.ts';

let database: Database;
beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(async () => {
  await database.close();
});

/** An app logging at info into an array, one parsed object per line. */
async function loggedApp(overrides: Record<string, string>) {
  const lines: Record<string, unknown>[] = [];
  const app = await buildApp({
    config: testConfig({ LOG_LEVEL: 'info', ...overrides }),
    database,
    clock: manualClock(),
    mailer: memoryMailer(),
    logger: { level: 'info', stream: { write: (line: string) => lines.push(JSON.parse(line)) } },
  });
  return { app, lines };
}

describe('request logging', () => {
  it('writes one line a request at info, with method, path (no query), status and time', async () => {
    const { app, lines } = await loggedApp({});
    try {
      await app.ready();
      await app.inject({ method: 'GET', url: '/healthz?probe=1' });
      await app.inject({ method: 'POST', url: '/api/robots', payload: { action: 'GetRobots' } });
      expect(lines.map((l) => l.msg)).toEqual(['request', 'request']);
      expect(lines[0]).toMatchObject({ req: { method: 'GET', url: '/healthz' }, res: { statusCode: 200 } });
      expect(lines[1]).toMatchObject({ req: { method: 'POST', url: '/api/robots' }, res: { statusCode: 403 } });
      expect(typeof lines[0]?.responseTime).toBe('number');
      // The client's address is on the line (a plain object once lost it to Fastify's serializer).
      expect(lines[0]).toMatchObject({ req: { remoteAddress: '127.0.0.1' } });
    } finally {
      await app.close();
    }
  });

  it('no header, token or query string reaches a line through req or res, whatever a log call passes', async () => {
    const { app, lines } = await loggedApp({});
    try {
      app.get('/boom', async () => {
        throw new Error('boom');
      });
      await app.ready();
      const secrets = ['Bearer access-secret', 'refresh=cookie-secret', 'csrf-secret', 'query-secret'];
      await app.inject({
        method: 'GET',
        url: '/boom?token=query-secret',
        headers: { authorization: secrets[0], cookie: secrets[1], 'x-csrf-token': secrets[2] },
      });
      app.log.info(
        {
          req: { method: 'POST', url: '/x?ticket=query-secret', headers: { authorization: secrets[0] } },
          res: { statusCode: 200, headers: { 'x-csrf-token': secrets[2] } },
        },
        'by hand',
      );
      expect(lines.map((l) => l.msg)).toEqual(['unhandled error', 'request', 'by hand']);
      expect(lines[1]).toMatchObject({
        req: { method: 'GET', url: '/boom', remoteAddress: '127.0.0.1' },
        res: { statusCode: 500 },
      });
      expect(lines[2]).toEqual(
        expect.objectContaining({ req: { method: 'POST', url: '/x' }, res: { statusCode: 200 } }),
      );
      const written = JSON.stringify(lines);
      for (const secret of ['access-secret', 'cookie-secret', 'csrf-secret', 'query-secret'])
        expect(written).not.toContain(secret);
    } finally {
      await app.close();
    }
  });

  it('LOG_REQUESTS=false writes none for answered requests, and a failure is still logged', async () => {
    const { app, lines } = await loggedApp({ LOG_REQUESTS: 'false' });
    try {
      app.get('/boom', async () => {
        throw new Error('boom');
      });
      await app.ready();
      await app.inject({ method: 'GET', url: '/healthz' });
      expect(lines).toEqual([]);
      expect((await app.inject({ method: 'GET', url: '/boom' })).statusCode).toBe(500);
      expect(lines.map((l) => [l.level, l.msg])).toEqual([[50, 'unhandled error']]);
    } finally {
      await app.close();
    }
  });
});

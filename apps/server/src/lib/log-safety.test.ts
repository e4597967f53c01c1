import { Writable } from 'node:stream';
import { ErrorCodes, useraction } from '@portal/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, loggerOptions } from '../app.ts';
import type { Database } from '../db/client.ts';
import { ApiClient, freshDatabase, testConfig } from '../test/harness.ts';
import { manualClock } from './clock.ts';
import { errSerializer, statementName } from './log-safety.ts';

/** Issue 14, finding 7: a failed query must not put its parameters (email, hash, profile) in the log. */

const lines: string[] = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    lines.push(String(chunk));
    done();
  },
});

let database: Database;
let app: Awaited<ReturnType<typeof buildApp>>;
let api: ApiClient;
beforeAll(async () => {
  database = await freshDatabase();
  // A rule the application does not know: an insert with this name fails inside PostgreSQL (23514),
  // as an unforeseen database error would, with every parameter of the statement in the error.
  await database.db.execute(
    sql.raw(`alter table users add constraint test_refuses_name check (name <> 'Refused Name')`),
  );
  const config = testConfig({ LOG_LEVEL: 'info', RATE_REGISTER_PER_ADDRESS: '1000' });
  const clock = manualClock();
  const logger = { ...(loggerOptions('info') as object), stream: sink };
  app = await buildApp({ config, database, clock, logger: logger as never });
  await app.ready();
  api = new ApiClient(app, clock);
});
afterAll(async () => {
  await app.close();
  await database.close();
});

describe('a database error in the log', () => {
  it('carries the SQL state and the statement, never the query parameters', async () => {
    const email = 'secret-person@example.test';
    const res = await api.call(useraction, 'UserRegister', {
      user: {
        email,
        password: 'Unusual-Passphrase-77!',
        name: 'Refused Name',
        year_born: 1980,
        country: 'United Kingdom',
        company: 'Confidential Robotics Ltd',
        profession: 'Secret Agent',
        termsagreed: true,
      },
    });
    expect(res.status).toBe(500);
    expect(res.body.error.Code).toBe(ErrorCodes.INTERNAL.code);
    expect(res.body.error.Description).not.toMatch(/users|insert|23514/);

    const log = lines.join('');
    const failure = lines.map((l) => JSON.parse(l)).find((l) => l.level >= 50);
    expect(failure, log).toBeDefined();
    expect(failure.database).toMatchObject({ type: 'DatabaseError', sqlState: '23514', statement: 'insert users' });
    for (const secret of [
      email,
      'Refused Name',
      'Confidential Robotics',
      'Secret Agent',
      '$argon2',
      'Unusual-Passphrase',
    ])
      expect(log).not.toContain(secret);
  });
});

describe('errSerializer', () => {
  const drizzleLike = Object.assign(
    new Error('Failed query: insert into "users" ("email") values ($1)\nparams: a@b.c'),
    {
      name: 'DrizzleQueryError',
      query: 'insert into "users" ("email") values ($1)',
      params: ['a@b.c'],
      cause: Object.assign(new Error('new row violates check constraint'), {
        code: '23514',
        detail: 'Failing row (a@b.c)',
      }),
    },
  );

  it.each([
    ['a drizzle error', drizzleLike, { type: 'DatabaseError', sqlState: '23514', statement: 'insert users' }],
    [
      'a driver error alone',
      Object.assign(new Error('duplicate key (a@b.c)'), { code: '23505' }),
      { type: 'DatabaseError', sqlState: '23505' },
    ],
  ])('serializes %s without its values', (_name, err, expected) => {
    const out = errSerializer(err);
    expect(out).toMatchObject(expected);
    expect(JSON.stringify(out)).not.toContain('a@b.c');
  });

  it('serializes any other error as usual', () => {
    expect(errSerializer(new Error('boom'))).toMatchObject({ type: 'Error', message: 'boom' });
  });

  it.each([
    ['insert into "users" ("email") values ($1)', 'insert users'],
    ['select "id" from "robots" where "id" = $1', 'select robots'],
    ['update "sessions" set "revoked_at" = $1', 'update sessions'],
    ['delete from "rate_limits" where "window_start" < $1', 'delete rate_limits'],
    ['vacuum', undefined],
  ])('names %s as %s', (query, name) => {
    expect(statementName(query)).toBe(name);
  });
});

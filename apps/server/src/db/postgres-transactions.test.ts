import { createRequire } from 'node:module';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyPostgresDatabase, NEEDS_POSTGRES, TEST_DATABASE_URL } from '../test/postgres.ts';

// postgres.js reserves a connection for `sql.begin` in a hook it calls once BEGIN is written. In
// 3.4.9 that hook was the last term of an `&&` chain that also asks whether the connection can take
// more (the socket's buffer, `max_pipeline` statements in flight): when BEGIN filled the pipeline or
// the socket, the hook was skipped. The transaction then failed with UNSAFE_TRANSACTION while its
// connection went back to the pool still inside it: later statements of other requests ran in a
// transaction nobody commits, and the next BEGIN on it warned "already a transaction in progress".
// The bench met it once under 200 concurrent sign-ins. patches/postgres+3.4.9.patch (decision 051)
// reserves the connection whenever BEGIN is written. These tests fail without it.

type Sql = ReturnType<typeof postgres>;
const cjsPostgres = createRequire(import.meta.url)('postgres') as typeof postgres;
const copies: [string, typeof postgres][] = [
  ['the ES module the server loads', postgres],
  ['the CommonJS copy', cjsPostgres],
];

interface Tally {
  committed: number;
  errors: string[];
  /** Statements sent outside a transaction that ran inside one. */
  inAnotherTransaction: number;
  /** Transactions that shared one (the same transaction id). */
  shared: number;
  /** Connections the pool hands out that are still inside a transaction after every call settled. */
  leftInTransaction: number;
  notices: string[];
}

/**
 * Every connection busy, one autocommit statement pipelined behind each, then transactions: the
 * BEGINs queue behind them, and with a small `max_pipeline` each fills its connection's pipeline.
 */
async function crowd(make: typeof postgres, url: string, options: { max_pipeline?: number }, rounds: number) {
  const tally: Tally = {
    committed: 0,
    errors: [],
    inAnotherTransaction: 0,
    shared: 0,
    leftInTransaction: 0,
    notices: [],
  };
  const sql: Sql = make(url, { max: 3, ...options, onnotice: (n) => tally.notices.push(String(n.message)) });
  try {
    for (let round = 0; round < rounds; round++) {
      const calls: Promise<unknown>[] = [];
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) calls.push(sql`select pg_sleep(0.03)`.execute());
      // Marks its own transaction (is_local) and says whether it has an id, i.e. joined a writer's.
      for (let i = 0; i < 3; i++)
        calls.push(
          sql`select set_config('portal.mark', 'autocommit', true), pg_current_xact_id_if_assigned()::text as id`.then(
            ([row]) => {
              if (row?.id) tally.inAnotherTransaction++;
            },
          ),
        );
      await null;
      for (let i = 0; i < 5; i++)
        calls.push(
          sql
            .begin(async (tx) => {
              const [row] = await tx`select txid_current()::text as id, current_setting('portal.mark', true) as mark`;
              if (row?.mark === 'autocommit') tally.inAnotherTransaction++;
              ids.push(String(row?.id));
              await tx`select pg_sleep(0.005)`;
            })
            .then(() => tally.committed++),
        );
      for (const result of await Promise.allSettled(calls))
        if (result.status === 'rejected') tally.errors.push(String((result.reason as Error).message));
      tally.shared += ids.length - new Set(ids).size;
      const after = await Promise.all(
        Array.from({ length: 6 }, () => sql`select current_setting('portal.mark', true) as mark`),
      );
      tally.leftInTransaction += after.filter(([row]) => row?.mark === 'autocommit').length;
    }
  } finally {
    await sql.end({ timeout: 5 });
  }
  return tally;
}

describe.skipIf(!TEST_DATABASE_URL)(
  `postgres.js transactions under a full pipeline${TEST_DATABASE_URL ? '' : ` (${NEEDS_POSTGRES})`}`,
  () => {
    let url = '';
    let drop: () => Promise<void> = async () => {};
    beforeAll(async () => {
      const empty = await emptyPostgresDatabase(TEST_DATABASE_URL as string);
      url = empty.url;
      drop = empty.drop;
    });
    afterAll(() => drop());

    const cases: { name: string; options: { max_pipeline?: number } }[] = [
      { name: 'BEGIN fills the pipeline (max_pipeline 2)', options: { max_pipeline: 2 } },
      { name: 'every statement fills it (max_pipeline 0)', options: { max_pipeline: 0 } },
      { name: 'the default pipeline', options: {} },
    ];
    describe.each(copies)('%s', (_, make) => {
      it.each(cases)(
        '$name: every transaction on a connection of its own, nothing else inside it',
        async ({ options }) => {
          const rounds = 8;
          const tally = await crowd(make, url, options, rounds);
          expect(tally).toEqual({
            committed: 5 * rounds,
            errors: [],
            inAnotherTransaction: 0,
            shared: 0,
            leftInTransaction: 0,
            notices: [],
          });
        },
      );
    });
  },
);

import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../test/harness.ts';
import { type Database, epochMsOf, preparedSql } from './client.ts';
import { users } from './schema.ts';

// preparedSql hands its text to the driver itself (PGlite, or postgres.js with TEST_DATABASE_URL):
// the same rows from both, the transaction's connection inside one, and every statement logged.
let database: Database;
const logged: string[] = [];
beforeAll(async () => {
  database = await freshDatabase({ onQuery: (q) => logged.push(q) });
});
afterAll(() => database.close());

const byEmail = preparedSql<{ id: string; joinedAt: number; validated: boolean; tag: string }>(sql`
  select ${users.id} as "id", ${epochMsOf(users.joinedAt)} as "joinedAt", ${users.emailValidated} as "validated",
    ${'fixed'}::text as "tag"
  from ${users} where ${users.email} = ${sql.placeholder('email')}`);

const insertUser = (db: Database['db'] | Parameters<Parameters<Database['db']['transaction']>[0]>[0], email: string) =>
  db
    .insert(users)
    .values({ email, passwordHash: 'x', name: 'N', joinedAt: new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 678)) })
    .returning({ id: users.id });

describe('preparedSql', () => {
  it('fills the named values, keeps the fixed ones, and answers times as epoch milliseconds', async () => {
    const [user] = await insertUser(database.db, 'prepared@example.com');
    logged.length = 0;
    const rows = await byEmail(database.db, { email: 'prepared@example.com' });
    expect(rows).toEqual([
      { id: user?.id, joinedAt: Date.UTC(2026, 0, 2, 3, 4, 5, 678), validated: false, tag: 'fixed' },
    ]);
    expect(await byEmail(database.db, { email: 'nobody@example.com' })).toEqual([]);
    // The query logger sees each run (the GetRobots statement count relies on it).
    expect(logged).toHaveLength(2);
    expect(logged[0]).toContain('from "users"');
  });

  it("runs on a transaction's own connection: it sees what the transaction wrote, and nothing after a rollback", async () => {
    const seen: number[] = [];
    await expect(
      database.db.transaction(async (tx) => {
        await insertUser(tx, 'in-tx@example.com');
        seen.push((await byEmail(tx, { email: 'in-tx@example.com' })).length);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(seen).toEqual([1]);
    expect(await byEmail(database.db, { email: 'in-tx@example.com' })).toEqual([]);
    expect(await database.db.select().from(users).where(eq(users.email, 'in-tx@example.com'))).toEqual([]);
  });
});

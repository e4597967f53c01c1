import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { migrationsFolder } from '../../db/client.ts';

/**
 * Migration 0011 (docs/decisions/061) on a database with counts from before it: an operator's count
 * becomes the grant (with the plan's count of the deciding subscription beside it), a subscription's
 * count becomes the plan's, and no count in force shrinks.
 */
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The migrations folder with only the first `count` entries of its journal. */
function migrationsUpTo(count: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'portal-migrations-'));
  dirs.push(dir);
  cpSync(migrationsFolder, dir, { recursive: true });
  const journalPath = join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
  journal.entries = journal.entries.slice(0, count);
  writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

describe("migration 0011: flexible slot counts become the plan's and the grant", () => {
  it('moves each count to its source and keeps the larger in force', async () => {
    const client = new PGlite();
    const db = drizzle(client);
    const before = migrationsUpTo(11);
    expect(JSON.parse(readFileSync(join(before, 'meta', '_journal.json'), 'utf8')).entries.at(-1).tag).toBe(
      '0010_live_fleet',
    );
    await migrate(db, { migrationsFolder: before });

    const user = async (name: string) => {
      const { rows } = await client.query<{ id: string }>(
        `insert into users (email, password_hash, name) values ($1, 'x', $2) returning id`,
        [`${name}@example.test`, name],
      );
      return rows[0]?.id as string;
    };
    const plan = (userId: string, tier: string, overrideKind: number, slots: number, startedDaysAgo: number) =>
      client.query(
        `insert into subscriptions (user_id, tier, status, override_kind, starts_at, ends_at, flex_slots)
         values ($1, $2, 'active', $3, now() - make_interval(days => $4), now() + interval '30 days', $5)`,
        [userId, tier, overrideKind, startedDaysAgo, slots],
      );
    const allowance = (userId: string, amount: number, source: string) =>
      client.query(`insert into flex_slot_allowances (user_id, amount, source) values ($1, $2, $3)`, [
        userId,
        amount,
        source,
      ]);

    // The demo account: a paid Standard plan (1 slot) under an operator's count of 2.
    const demo = await user('demo');
    await plan(demo, 'Standard Subscription', 99, 1, 60);
    await allowance(demo, 2, 'operator');
    // A paid Pro plan (3) under an operator's count of 1: the plan's 3 is in force from now on.
    const pro = await user('pro');
    await plan(pro, 'Pro Subscription', 99, 3, 10);
    await allowance(pro, 1, 'operator');
    // A grant of Standard wins over a paid Pro plan (decision 019): the grant's 1 is the plan's count.
    const granted = await user('granted');
    await plan(granted, 'Pro Subscription', 99, 3, 20);
    await plan(granted, 'Standard Subscription', 1, 1, 5);
    await allowance(granted, 4, 'operator');
    // An operator's count without any plan.
    const bare = await user('bare');
    await allowance(bare, 2, 'operator');
    // A count the plan set.
    const paid = await user('paid');
    await plan(paid, 'Standard Subscription', 99, 1, 30);
    await allowance(paid, 1, 'subscription');

    await migrate(db, { migrationsFolder });
    const { rows } = await client.query<{ email: string; amount: number; plan: number; granted: number | null }>(
      `select u.email, a.amount, a.plan_amount as plan, a.granted_amount as granted
       from flex_slot_allowances a join users u on u.id = a.user_id order by u.email`,
    );
    expect(rows).toEqual([
      { email: 'bare@example.test', amount: 2, plan: 0, granted: 2 },
      { email: 'demo@example.test', amount: 2, plan: 1, granted: 2 },
      { email: 'granted@example.test', amount: 4, plan: 1, granted: 4 },
      { email: 'paid@example.test', amount: 1, plan: 1, granted: null },
      { email: 'pro@example.test', amount: 3, plan: 3, granted: 1 },
    ]);
    const columns = await client.query<{ column_name: string }>(
      `select column_name from information_schema.columns where table_name = 'flex_slot_allowances'`,
    );
    expect(columns.rows.map((c) => c.column_name)).not.toContain('source');
    await client.close();
  });
});

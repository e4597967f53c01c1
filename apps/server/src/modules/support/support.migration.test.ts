import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { migrationsFolder } from '../../db/client.ts';

/**
 * The support threads migration (issue 35, docs/decisions/074) on requests sent before it: "open"
 * (nobody had read it) becomes new, "answered" waiting, "closed" stays; the times start at the
 * request's own.
 */
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The migrations folder without its journal's entries from `tag` on. */
function migrationsBefore(tag: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'portal-migrations-'));
  dirs.push(dir);
  cpSync(migrationsFolder, dir, { recursive: true });
  const journalPath = join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((e) => e.tag.endsWith(tag));
  expect(at).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, at);
  writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

describe('the support threads migration', () => {
  it('maps the old statuses and starts the times at the request', async () => {
    const client = new PGlite();
    const db = drizzle(client);
    await migrate(db, { migrationsFolder: migrationsBefore('_support_threads') });
    const { rows } = await client.query<{ id: string }>(
      `insert into users (email, password_hash, name) values ('old@example.test', 'x', 'Old') returning id`,
    );
    const userId = rows[0]?.id as string;
    for (const [ticket, status] of [
      ['SR-AAAA-AAAA', 'open'],
      ['SR-BBBB-BBBB', 'answered'],
      ['SR-CCCC-CCCC', 'closed'],
    ])
      await client.query(
        `insert into support_requests (ticket_id, user_id, email, category, subject, message, status, created_at)
         values ($1, $2, 'old@example.test', 'general', 'Old', 'An old request', $3, '2026-01-02T03:04:05Z')`,
        [ticket, userId, status],
      );

    await migrate(db, { migrationsFolder });
    const after = await client.query<{
      ticket_id: string;
      status: string;
      updated: string;
      last: string;
      assignee_id: null;
    }>(
      `select ticket_id, status, updated_at::text as updated, last_message_at::text as last, assignee_id
       from support_requests order by ticket_id`,
    );
    expect(after.rows.map((r) => [r.ticket_id, r.status, r.assignee_id])).toEqual([
      ['SR-AAAA-AAAA', 'new', null],
      ['SR-BBBB-BBBB', 'waiting', null],
      ['SR-CCCC-CCCC', 'closed', null],
    ]);
    expect(after.rows.every((r) => r.updated.startsWith('2026-01-02 03:04:05') && r.last === r.updated)).toBe(true);
    await client.close();
  });
});

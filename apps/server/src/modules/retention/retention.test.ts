import { addYearsUtc, ONE_DAY_MS, robots, support, time, useraction } from '@portal/contract';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  emailTokens,
  loginFailures,
  outbox,
  rateLimits,
  refreshTokens,
  robots as robotsTable,
  sessions,
  supportRequests,
  timeLedger,
  users,
} from '../../db/schema.ts';
import {
  as,
  asOperator,
  hardwareHash,
  nextIp,
  relogin,
  type SignedIn,
  signIn,
  useTestApp,
} from '../../test/fixtures.ts';
import { GOOD_PASSWORD } from '../../test/harness.ts';
import { accountKey } from '../useraction/useraction.lockout.ts';
import { ANONYMISED_DOMAIN, ANONYMISED_TEXT } from './retention.repository.ts';
import { RETENTION_LOCK } from './retention.service.ts';

/**
 * The retention job (docs/decisions/027), on a moved clock: expired rows go at once, personal data
 * past two years is anonymised, and an account still in use keeps its data.
 */

const t = useTestApp();
const run = () => t.app.services.retention.run();
const db = () => t.app.deps.db;
const userRow = async (id: string) => (await db().select().from(users).where(eq(users.id, id)))[0];
const countWhere = async (table: typeof sessions | typeof emailTokens, userId: string) =>
  (await db().select().from(table).where(eq(table.userId, userId))).length;

async function leaveTraces(user: SignedIn) {
  const registered = await as(
    t,
    user,
    robots,
  )('REGISTERSIM', {
    make: 'Pepper',
    model: 'Pepper',
    name: 'Retention Pepper',
    hardware_hash: hardwareHash(),
  });
  const robotId = (registered.body.robot as { robot_id: string }).robot_id;
  // An unlicensed robot of one's own is metered like any other: a ledger row naming the robot.
  const dial = await as(
    t,
    user,
    time,
  )('UPDATE_TIME', { robot_id: robotId, minutes: 3, idempotency_key: hardwareHash() });
  expect(dial.status, JSON.stringify(dial.body)).toBe(200);
  const ticket = await as(
    t,
    user,
    support,
  )('SubmitSupportRequest', {
    category: 'general',
    subject: 'A personal subject',
    message: 'A personal message with my phone number in it.',
  });
  expect(ticket.status).toBe(200);
  // A reset mail (an email token) and a failed sign-in (a login failure).
  await t.api.call(useraction, 'UserForgotPassword', { user: { email: user.email } }, { ip: nextIp() });
  const failed = await t.api.call(
    useraction,
    'login',
    { user: { email: user.email, password: 'Wrong-Password-1!' } },
    { ip: nextIp() },
  );
  expect(failed.status).toBe(401);
  return robotId;
}

describe('the retention job', () => {
  it('prunes expired rows at once, anonymises dormant accounts after two years, keeps accounts in use', async () => {
    const start = t.clock.now().getTime();
    const dormant = await signIn(t);
    let active = await signIn(t);
    const dormantRobot = await leaveTraces(dormant);
    await leaveTraces(active);

    // Today: nothing has expired and nothing is past retention.
    const first = await run();
    expect(first.skipped).toBe(false);
    expect(first.anonymised.users).toBe(0);
    expect(await countWhere(sessions, dormant.id)).toBe(1);
    expect(await countWhere(emailTokens, dormant.id)).toBe(1);
    const dormantFailures = () =>
      db()
        .select()
        .from(loginFailures)
        .where(eq(loginFailures.accountKey, accountKey(dormant.email)));
    expect((await dormantFailures()).length).toBeGreaterThan(0);

    // Eight days on: the sessions (7 days), the reset token (an hour) and the rate-limit windows are
    // gone; the sign-in they showed is kept on the account. Sign-in failures and known addresses are
    // kept for the known-address window (30 days, docs/decisions/026).
    t.clock.set(new Date(start + 8 * ONE_DAY_MS));
    const week = await run();
    expect(week.pruned).toMatchObject({ sessions: 2, email_tokens: 2, login_failures: 0 });
    expect(week.pruned.refresh_tokens).toBeGreaterThanOrEqual(2);
    expect(week.pruned.rate_limits).toBeGreaterThan(0);
    expect(await countWhere(sessions, dormant.id)).toBe(0);
    expect(await db().select().from(refreshTokens)).toEqual([]);
    expect(
      await db()
        .select()
        .from(rateLimits)
        .where(sql`window_start < ${new Date(start).toISOString()}::timestamptz`),
    ).toEqual([]);
    const seen = await userRow(dormant.id);
    expect(seen?.lastActiveAt?.getTime()).toBeGreaterThanOrEqual(start - 60_000);
    expect(seen?.email).toBe(dormant.email);

    // Nearly two years on, one account is used again; then the two years pass for the other.
    t.clock.set(new Date(addYearsUtc(start, 2) - 30 * ONE_DAY_MS));
    active = await relogin(t, active);
    t.clock.set(new Date(addYearsUtc(start, 2) + ONE_DAY_MS));
    const later = await run();
    expect(later.anonymised.users).toBe(1);
    expect(await dormantFailures()).toEqual([]);
    expect(later.anonymised.support_requests).toBe(2);
    expect(later.anonymised.time_ledger).toBe(2);

    const gone = await userRow(dormant.id);
    expect(gone).toMatchObject({
      email: `anonymised-${dormant.id}@${ANONYMISED_DOMAIN}`,
      name: ANONYMISED_TEXT,
      company: '',
      profession: '',
      country: '',
      yearBorn: -1,
      marketing: false,
      emailValidated: false,
    });
    expect(gone?.passwordHash).not.toMatch(/^\$argon2/);
    // The old address and password open nothing.
    const signInAgain = await t.api.call(
      useraction,
      'login',
      { user: { email: dormant.email, password: GOOD_PASSWORD } },
      { ip: nextIp() },
    );
    expect(signInAgain.status).toBe(401);
    expect(await db().select().from(robotsTable).where(eq(robotsTable.id, dormantRobot))).toEqual([]);
    // Support requests of both accounts are two years old: their words are gone, their category stays.
    for (const user of [dormant, active]) {
      const [request] = await db().select().from(supportRequests).where(eq(supportRequests.userId, user.id));
      expect(request).toMatchObject({
        email: '',
        subject: ANONYMISED_TEXT,
        message: ANONYMISED_TEXT,
        category: 'general',
      });
    }
    // The ledger keeps the minutes (balances stay), not which robot was dialled.
    const uses = await db().select().from(timeLedger).where(eq(timeLedger.userId, dormant.id));
    expect(uses.filter((r) => r.kind === 'use')).toEqual([expect.objectContaining({ minutes: 3, robotId: null })]);

    // The account in use keeps its identity and can sign in.
    expect(await userRow(active.id)).toMatchObject({ email: active.email, name: 'Test User' });
    expect((await relogin(t, active)).token).toBeTruthy();

    // A second run finds nothing left to do.
    const again = await run();
    expect([...Object.values(again.pruned), ...Object.values(again.anonymised)].every((n) => n === 0)).toBe(true);
  });

  it('deletes outbox work done more than 30 days ago, and keeps what is not done however old', async () => {
    const now = t.clock.now();
    const day = (n: number) => new Date(now.getTime() - n * ONE_DAY_MS);
    const row = (key: string, doneDaysAgo: number | null) => ({
      kind: 'provider.cancel_subscription',
      key,
      payload: {},
      runAfter: day(40),
      createdAt: day(40),
      attempts: doneDaysAgo === null ? 9 : 1,
      doneAt: doneDaysAgo === null ? null : day(doneDaysAgo),
    });
    await db()
      .insert(outbox)
      .values([row('retention-old-done', 31), row('retention-recent-done', 29), row('retention-failing', null)]);
    const result = await run();
    expect(result.pruned.outbox_done).toBe(1);
    const left = (await db().select({ key: outbox.key }).from(outbox))
      .map((r) => r.key)
      .filter((k) => k.startsWith('retention-'));
    expect(left.sort()).toEqual(['retention-failing', 'retention-recent-done']);
  });

  it('keeps a dormant account that still holds durable minutes, and anonymises it once they are used up', async () => {
    const start = t.clock.now().getTime();
    const holder = await signIn(t);
    const granted = await asOperator(t, time)('ADD_TIME', {
      email: holder.email,
      minutes: 5,
      reason: 'Bought minutes',
      idempotency_key: hardwareHash(),
    });
    expect(granted.status, JSON.stringify(granted.body)).toBe(200);

    // Two years and a month on: its sessions ended long ago, nothing else is in force.
    t.clock.set(new Date(addYearsUtc(start, 2) + 30 * ONE_DAY_MS));
    await run();
    expect((await userRow(holder.id))?.email).toBe(holder.email);

    // The owner comes back and spends them (on a robot of their own: metered), then leaves for good.
    const back = await relogin(t, holder);
    const { body } = await as(
      t,
      back,
      robots,
    )('REGISTERSIM', {
      make: 'Pepper',
      model: 'Pepper',
      name: 'Last Pepper',
      hardware_hash: hardwareHash(),
    });
    const robotId = (body.robot as { robot_id: string }).robot_id;
    // Past the first period the yearly allocation is spent first; what is left of both goes in one dial.
    const balance = await as(t, back, time)('CHECK_REMAINING_TIME', {});
    const pools = balance.body.user_time as Record<
      'total_perishable_time' | 'used_perishable_time' | 'total_durable_time' | 'used_durable_time',
      number
    >;
    expect(pools.total_durable_time - pools.used_durable_time).toBe(5);
    const minutes =
      pools.total_perishable_time - pools.used_perishable_time + pools.total_durable_time - pools.used_durable_time;
    const dial = await as(
      t,
      back,
      time,
    )('UPDATE_TIME', { robot_id: robotId, minutes, idempotency_key: hardwareHash() });
    expect(dial.status, JSON.stringify(dial.body)).toBe(200);

    t.clock.set(new Date(addYearsUtc(start, 4) + 60 * ONE_DAY_MS));
    await run();
    expect((await userRow(holder.id))?.email).toBe(`anonymised-${holder.id}@${ANONYMISED_DOMAIN}`);
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'runs on one instance at a time: a run while another holds the lock does nothing',
    async () => {
      await db().transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${RETENTION_LOCK}, 0))`);
        expect((await run()).skipped).toBe(true);
      });
      expect((await run()).skipped).toBe(false);
    },
  );
  if (!process.env.TEST_DATABASE_URL)
    console.info('retention: the advisory-lock test needs PostgreSQL (TEST_DATABASE_URL); PGlite has one connection');
});

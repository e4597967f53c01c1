import {
  ApiError,
  type CreditKind,
  creditEntry,
  type LedgerContext,
  openPeriod,
  shortRobotId,
  TIME_WARNINGS,
  TimeStatus,
  type UsageHistory,
  type UsageRobot,
  type UserTime,
  usageRange,
  useEntry,
  userTimeFromLedger,
} from '@portal/contract';
import type { Db, Executor } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { SubscriptionService } from '../subscriptions/subscriptions.service.ts';
import { type LedgerRow, type LedgerWrite, timeRepository as repo } from './time.repository.ts';

/**
 * Dial time (docs/decisions/008): the arithmetic is the contract's ledger functions; this class adds
 * the database around it. Every write runs in one transaction holding the user's lock, so
 * concurrent reports never double-spend.
 */
export class TimeService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly subscriptions: SubscriptionService,
  ) {}

  private async context(ex: Executor, userId: string, now: Date): Promise<LedgerContext> {
    const info = await this.subscriptions.tierOf(ex, userId, now);
    if (!info) throw new ApiError('NOT_FOUND', 'email: no account with this email');
    return {
      tier: info.tier,
      anchorMs: info.anchor.getTime(),
      nowMs: now.getTime(),
      subscriptionEndMs: info.endsAt?.getTime() ?? 0,
      paymentFailedAtMs: info.paymentFailedAt?.getTime() ?? 0,
    };
  }

  /** The user's time now. Reading writes nothing: a period not yet opened is opened in the answer only. */
  async check(userId: string): Promise<UserTime> {
    const now = this.clock.now();
    // The tier and the ledger are read independently: both statements go out at once.
    const [ctx, sums] = await Promise.all([this.context(this.db, userId, now), repo.sums(this.db, userId)]);
    return userTimeFromLedger(sums, ctx);
  }

  /**
   * Records minutes of use (perishable first, never below 0). A key already recorded for the same
   * robot and minutes changes nothing and answers the balance; for a different report it is a conflict.
   */
  async use(
    userId: string,
    input: {
      minutes: number;
      robotId: string;
      idempotencyKey: string;
      /** the robot's model if the caller can see the robot, recorded to name it later (docs/decisions/029) */
      robotModel?: string | null | undefined;
    },
  ): Promise<UserTime> {
    const key = `use:${input.idempotencyKey}`;
    return this.db.transaction(async (tx) => {
      const now = this.clock.now();
      await repo.lock(tx, userId, now);
      const ctx = await this.context(tx, userId, now);
      const previous = await repo.byIdempotencyKey(tx, userId, key);
      if (previous) {
        if (previous.minutes !== input.minutes || previous.robotId !== input.robotId)
          throw new ApiError(
            'CONFLICT',
            `idempotency_key: already used for a different report (${previous.minutes} minutes on robot ${previous.robotId})`,
          );
        return userTimeFromLedger(await repo.sums(tx, userId), ctx);
      }
      const entries = await this.openCurrentPeriod(tx, userId, ctx, now);
      // No time left: the report is refused and nothing is written (docs/decisions/027, amending 008).
      if (userTimeFromLedger(entries, ctx).time_status === TimeStatus.Exhausted)
        throw new ApiError('PAYMENT', `minutes: ${TIME_WARNINGS.exhausted}`);
      const use = useEntry(entries, ctx, input.minutes);
      await repo.append(tx, userId, [
        {
          ...use,
          robotId: input.robotId,
          robotModel: input.robotModel ?? null,
          idempotencyKey: key,
          reason: 'dial',
          createdAt: now,
        },
      ]);
      return userTimeFromLedger([...entries, use], ctx);
    });
  }

  /** Every entry of the user's minutes ledger, oldest first (the customer view and the data export). */
  ledger(userId: string): Promise<LedgerRow[]> {
    return repo.history(this.db, userId);
  }

  /**
   * The history of the last `days` UTC days (docs/decisions/029): minutes used per day and robot,
   * totals per robot, and the minutes added. A robot registered to the user now is named as it is
   * now; any other as the ledger recorded it when dialled.
   */
  async usageHistory(userId: string, days: number): Promise<UsageHistory> {
    const range = usageRange(this.clock.now().getTime(), days);
    const start = new Date(range.startMs);
    const end = new Date(range.endMs);
    const [rows, events] = await Promise.all([
      repo.usagePerDay(this.db, userId, start, end),
      repo.additionsPerDay(this.db, userId, start, end),
    ]);
    const robots = new Map<string, UsageRobot>();
    for (const row of rows) {
      const robot = robots.get(row.robotId) ?? {
        robot_id: row.robotId,
        short_id: shortRobotId(row.robotId),
        model: '',
        name: '',
        owned: false,
        total_minutes: 0,
      };
      robot.total_minutes += row.minutes;
      if (row.currentName !== null) {
        robot.owned = true;
        robot.name = row.currentName;
        robot.model = row.currentModel ?? robot.model;
      } else if (!robot.owned && row.recordedModel) robot.model = row.recordedModel;
      robots.set(row.robotId, robot);
    }
    const byUse = [...robots.values()].sort(
      (a, b) => b.total_minutes - a.total_minutes || a.robot_id.localeCompare(b.robot_id),
    );
    return {
      from: range.from,
      to: range.to,
      time_zone: 'UTC',
      total_minutes: byUse.reduce((sum, r) => sum + r.total_minutes, 0),
      robots: byUse,
      usage: rows.map((r) => ({ day: r.day, robot_id: r.robotId, minutes: r.minutes })),
      events,
    };
  }

  /** Adds durable minutes: a purchase (fulfilment) or an operator's grant. A repeated key adds nothing. */
  async credit(
    userId: string,
    input: { kind: CreditKind; minutes: number; reason: string; idempotencyKey?: string | undefined },
    /** the caller's transaction (fulfilment): the credit commits or rolls back with it */
    ex?: Executor,
  ): Promise<UserTime> {
    const key = input.idempotencyKey ? `add:${input.idempotencyKey}` : null;
    return (ex ?? this.db).transaction(async (tx) => {
      const now = this.clock.now();
      await repo.lock(tx, userId, now);
      const ctx = await this.context(tx, userId, now);
      if (key && (await repo.byIdempotencyKey(tx, userId, key)))
        return userTimeFromLedger(await repo.sums(tx, userId), ctx);
      const entries = await this.openCurrentPeriod(tx, userId, ctx, now);
      const credit = creditEntry(ctx, input.kind, input.minutes);
      await repo.append(tx, userId, [{ ...credit, reason: input.reason, idempotencyKey: key, createdAt: now }]);
      return userTimeFromLedger([...entries, credit], ctx);
    });
  }

  /**
   * Takes back durable minutes a refunded purchase added (docs/decisions/019): as many as are left
   * of the durable pool, never more, so the balance never goes below 0. A repeated key takes nothing.
   */
  async revoke(
    userId: string,
    input: { minutes: number; reason: string; idempotencyKey: string },
    ex?: Executor,
  ): Promise<UserTime> {
    const key = `revoke:${input.idempotencyKey}`;
    return (ex ?? this.db).transaction(async (tx) => {
      const now = this.clock.now();
      await repo.lock(tx, userId, now);
      const ctx = await this.context(tx, userId, now);
      if (await repo.byIdempotencyKey(tx, userId, key)) return userTimeFromLedger(await repo.sums(tx, userId), ctx);
      const entries = await this.openCurrentPeriod(tx, userId, ctx, now);
      const before = userTimeFromLedger(entries, ctx);
      const left = Math.max(0, before.total_durable_time - before.used_durable_time);
      const taken = Math.min(left, input.minutes);
      if (taken === 0) return before;
      const base = creditEntry(ctx, 'purchase', 0);
      const entry = { ...base, durable: -taken, minutes: taken };
      await repo.append(tx, userId, [{ ...entry, reason: input.reason, idempotencyKey: key, createdAt: now }]);
      return userTimeFromLedger([...entries, entry], ctx);
    });
  }

  /** Writes the current period's allocation and closes earlier periods; answers the ledger after it. */
  private async openCurrentPeriod(tx: Executor, userId: string, ctx: LedgerContext, now: Date) {
    const entries = await repo.sums(tx, userId);
    const opening = openPeriod(entries, ctx);
    await repo.append(
      tx,
      userId,
      opening.map(
        (e): LedgerWrite => ({
          ...e,
          reason: e.kind === 'allocation' ? `yearly allocation (${ctx.tier})` : 'period ended',
          createdAt: now,
        }),
      ),
    );
    return [...entries, ...opening];
  }
}

import { and, eq, gt, inArray, isNull, lte, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../../db/client.ts';
import { eventTickets, licenseShares, robotLicenses, robots, sessions, users } from '../../db/schema.ts';
import { EVENTS_CHANNEL } from './events.rules.ts';

/** Tickets, the users an event is for, and the NOTIFY itself. */
export const eventRepository = {
  /** A new ticket; the session's expired tickets go with it, so a session leaves at most a few behind. */
  async insertTicket(
    db: Executor,
    row: { hash: string; userId: string; sessionId: string; expiresAt: Date; now: Date },
  ): Promise<void> {
    await db
      .delete(eventTickets)
      .where(and(eq(eventTickets.sessionId, row.sessionId), lte(eventTickets.expiresAt, row.now)));
    await db
      .insert(eventTickets)
      .values({ hash: row.hash, userId: row.userId, sessionId: row.sessionId, expiresAt: row.expiresAt });
  },

  /**
   * Redeems a ticket in one statement: the row is deleted as it is read, so a ticket opens one
   * stream however many requests race for it. An expired ticket is deleted too, and answers nothing.
   */
  async redeemTicket(
    db: Executor,
    hash: string,
    now: Date,
  ): Promise<{ userId: string; sessionId: string } | undefined> {
    const [row] = await db.delete(eventTickets).where(eq(eventTickets.hash, hash)).returning({
      userId: eventTickets.userId,
      sessionId: eventTickets.sessionId,
      expiresAt: eventTickets.expiresAt,
    });
    return row && row.expiresAt > now ? { userId: row.userId, sessionId: row.sessionId } : undefined;
  },

  /** Of these sessions, those still alive: not revoked, not expired, their account not disabled. */
  async liveSessions(db: Executor, ids: readonly string[], now: Date): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await db
      .select({ id: sessions.id })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(
        and(
          inArray(sessions.id, [...ids]),
          isNull(sessions.revokedAt),
          gt(sessions.expiresAt, now),
          isNull(users.disabledAt),
        ),
      );
    return new Set(rows.map((r) => r.id));
  },

  /**
   * The users an event about a robot or a license is for: the robot's owner, the owner of the
   * license (given, or bound to the robot), and every account a live share of that license names.
   */
  async recipients(
    db: Executor,
    about: { robotId?: string | undefined; licenseId?: string | undefined },
    now: Date,
  ): Promise<string[]> {
    const at = sql`${now.toISOString()}::timestamptz`;
    const license = about.licenseId
      ? sql`select id, user_id from ${robotLicenses} where id = ${about.licenseId}::uuid`
      : about.robotId
        ? sql`select id, user_id from ${robotLicenses} where robot_id = ${about.robotId}::uuid`
        : undefined;
    if (!license && !about.robotId) return [];
    const robotOwner = about.robotId
      ? sql`select user_id as id from ${robots} where id = ${about.robotId}::uuid`
      : sql`select null::uuid as id where false`;
    const result = await db.execute(sql`
      with lic as (${license ?? sql`select null::uuid as id, null::uuid as user_id where false`})
      ${robotOwner}
      union select user_id from lic
      union select s.recipient_id from ${licenseShares} s join lic on s.license_id = lic.id
        where s.recipient_id is not null and s.stopped_at is null and s.starts_at <= ${at} and s.ends_at > ${at}`);
    return rowsOf<{ id: string | null }>(result)
      .map((r) => r.id)
      .filter((id): id is string => Boolean(id));
  },

  /** NOTIFY on a channel (the events one unless told); PostgreSQL delivers it when the transaction commits, and drops it if it rolls back. */
  async notify(db: Executor, payload: string, channel: string = EVENTS_CHANNEL): Promise<void> {
    await db.execute(sql`select pg_notify(${channel}, ${payload})`);
  },
};

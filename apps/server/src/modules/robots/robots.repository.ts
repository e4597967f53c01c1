import { EMPTY_GEO_RANGE, ROBOT_REPORT_TIMEOUT_MS } from '@portal/contract';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { type Executor, preparedSql, rowsOf, type SqlValue } from '../../db/client.ts';
import { robots } from '../../db/schema.ts';

export type RobotRow = typeof robots.$inferSelect;

/** GetRobots' answer, each field as JSON text. */
export type VisibleJson = {
  robots: string;
  robot_licenses: string;
  geo_range: string;
};

/** A timestamp as the spec's epoch milliseconds (what Date.getTime() gives: sub-millisecond digits dropped). */
const epochMs = (column: string) => `floor(extract(epoch from ${column}) * 1000)::bigint`;

/** The terms of a license as `licenseTerms` (reseller_info only when there is one). */
const licenceTerms = (id: string, start: string, duration: string, end: string, reseller: string) => `
  case when ${reseller} is null
    then json_build_object('license_id', ${id}, 'start_date', ${epochMs(start)}, 'duration', ${duration}, 'end_date', ${epochMs(end)})
    else json_build_object('license_id', ${id}, 'start_date', ${epochMs(start)}, 'duration', ${duration}, 'end_date', ${epochMs(end)}, 'reseller_info', ${reseller})
  end`;

/**
 * GetRobots in one statement (docs/performance.md): the robots asked about (all of the caller's
 * when `ids` is null) that the caller registered, or that are bound to a license with a live share
 * to the caller (the newest such share gives the period), each with its license, as the spec's
 * JSON, and the box around the positions of the caller's own robots (geo_range). Keys are in the
 * order the JavaScript views wrote them; dates are epoch milliseconds.
 */
export const visibleQuery = (userId: SqlValue, ids: SqlValue, now: SqlValue) => {
  const me = sql`${userId}::uuid`;
  const at = sql`${now}::timestamptz`;
  return sql`
with asked as (
  select r.*, l.id as l_id, l.asset_id as l_asset_id, l.robot_make as l_make, l.robot_model as l_model,
         l.is_flexible as l_flexible, l.starts_at as l_starts, l.duration_s as l_duration, l.ends_at as l_ends,
         l.reseller_info as l_reseller, r.user_id = ${me} as own, s.starts_at as s_starts, s.ends_at as s_ends,
         -- robotAvailable (contract live-fleet): available only while the hub's last report is recent
         coalesce(r.available and r.last_seen_at >= ${at} - make_interval(secs => ${ROBOT_REPORT_TIMEOUT_MS / 1000}), false) as live
  from robots r
  left join robot_licenses l on l.robot_id = r.id
  left join lateral (
    -- only for robots of others: the first condition is checked once per robot, before any scan
    select x.starts_at, x.ends_at from license_shares x
    where r.user_id <> ${me} and x.license_id = l.id and x.recipient_id = ${me} and x.stopped_at is null
      and x.ends_at > ${at} and l.ends_at > ${at}
    order by x.created_at desc limit 1
  ) s on true
  where case when ${ids}::jsonb is null then r.user_id = ${me}
             else r.id in (select value::uuid from jsonb_array_elements_text(${ids}::jsonb)) end
    and (r.user_id = ${me} or (l.id is not null and s.starts_at is not null))
)
select
  coalesce(json_agg(json_build_object(
    'robot_id', id, 'make', make, 'model', model, 'name', name,
    'hardware_hash', case when own then hardware_hash else '' end,
    'license', json_build_object('license_id', coalesce(l_id::text, '')),
    'join_date', ${sql.raw(epochMs('registered_at'))},
    'robot_config', config,
    'robot_state', case when own and latitude is not null and longitude is not null
      then json_build_object('available', live, 'location', json_build_object('lat', latitude, 'lon', longitude))
      else json_build_object('available', live) end,
    'pair_code', '',
    'isFlexible', coalesce(l_flexible, false),
    'last_seen', coalesce(${sql.raw(epochMs('last_seen_at'))}, 0)
  ) order by registered_at, id), '[]')::text as robots,
  coalesce(json_agg(json_build_object(
    'robot_id', id, 'asset_id', l_asset_id,
    'robot_license', case when own
      then ${sql.raw(licenceTerms('l_id', 'l_starts', 'l_duration', 'l_ends', 'l_reseller'))}
      else ${sql.raw(licenceTerms('l_id', 's_starts', SHARE_SECONDS, 's_ends', 'null'))}
    end,
    'robot_make', l_make, 'robot_model', l_model, 'pair_code', '', 'paired_status', true,
    'isFlexible', l_flexible
  ) order by registered_at, id) filter (where l_id is not null), '[]')::text as robot_licenses,
  -- the box around the caller's own robots that reported a position; every bound 0 when none did
  json_build_object(
    'UpperLat', coalesce(max(latitude) filter (where own and longitude is not null), 0),
    'LowerLat', coalesce(min(latitude) filter (where own and longitude is not null), 0),
    'UpperLong', coalesce(max(longitude) filter (where own and latitude is not null), 0),
    'LowerLong', coalesce(min(longitude) filter (where own and latitude is not null), 0)
  )::text as geo_range
from asked`;
};

/** A share's length in whole seconds, from its millisecond ends (as Math.round of the JS difference). */
const SHARE_SECONDS = `round((${epochMs('s_ends')} - ${epochMs('s_starts')}) / 1000.0)::int`;

/** visibleQuery made into text once (preparedSql), its values given on each call. */
const visibleStatement = preparedSql<VisibleJson>(
  visibleQuery(sql.placeholder('userId'), sql.placeholder('ids'), sql.placeholder('now')),
);

export const robotRepository = {
  /**
   * GetRobots' answer as JSON text, built by PostgreSQL: the server passes it on without parsing
   * it (at 1,000 licenses that is most of the request's CPU otherwise).
   */
  async visibleJson(db: Executor, userId: string, ids: readonly string[] | undefined, now: Date): Promise<VisibleJson> {
    const rows = await visibleStatement(db, {
      userId,
      ids: ids === undefined ? null : JSON.stringify(ids),
      now: now.toISOString(),
    });
    return rows[0] ?? { robots: '[]', robot_licenses: '[]', geo_range: JSON.stringify(EMPTY_GEO_RANGE) };
  },

  /** The robot reported (a dial): last seen is now. */
  /** The robot reported: last seen is now. Answers its reported state and when it was seen before. */
  async markSeen(
    db: Executor,
    id: string,
    now: Date,
  ): Promise<{ available: boolean; seenBefore: Date | null } | undefined> {
    const rows = rowsOf<{ available: boolean; seen_before: string | Date | null }>(
      await db.execute(sql`
      with prev as (select id, available, last_seen_at from ${robots} where id = ${id} for update)
      update ${robots} r set last_seen_at = ${now.toISOString()}::timestamptz from prev where r.id = prev.id
      returning prev.available, prev.last_seen_at as seen_before`),
    );
    const row = rows[0];
    if (!row) return undefined;
    return { available: row.available, seenBefore: row.seen_before === null ? null : new Date(row.seen_before) };
  },

  /**
   * Robots reported available whose last report passed ROBOT_REPORT_TIMEOUT_MS in (from, to]:
   * the ones that went silent since the previous sweep (docs/decisions/067).
   */
  async wentSilent(db: Executor, from: Date, to: Date): Promise<string[]> {
    const rows = await db
      .select({ id: robots.id })
      .from(robots)
      .where(
        and(
          eq(robots.available, true),
          sql`${robots.lastSeenAt} > ${from.toISOString()}::timestamptz - make_interval(secs => ${ROBOT_REPORT_TIMEOUT_MS / 1000})`,
          sql`${robots.lastSeenAt} <= ${to.toISOString()}::timestamptz - make_interval(secs => ${ROBOT_REPORT_TIMEOUT_MS / 1000})`,
        ),
      );
    return rows.map((r) => r.id);
  },

  /** One instance at a time sweeps: a transaction-scoped advisory lock, false when another holds it. */
  async trySweepLock(tx: Executor): Promise<boolean> {
    const rows = rowsOf<{ locked: boolean }>(
      await tx.execute(sql`select pg_try_advisory_xact_lock(hashtextextended('portal:robot-silence', 0)) as locked`),
    );
    return rows[0]?.locked === true;
  },

  /** Registers a robot; the same hardware hash for the same user answers the robot already there. */
  async register(
    db: Executor,
    row: { userId: string; make: string; model: string; name: string; hardwareHash: string; now: Date },
  ): Promise<{ robot: RobotRow; created: boolean }> {
    const [created] = await db
      .insert(robots)
      .values({
        userId: row.userId,
        make: row.make,
        model: row.model,
        name: row.name,
        hardwareHash: row.hardwareHash,
        registeredAt: row.now,
        updatedAt: row.now,
      })
      .onConflictDoNothing({ target: [robots.userId, robots.hardwareHash] })
      .returning();
    if (created) return { robot: created, created: true };
    const [existing] = await db
      .select()
      .from(robots)
      .where(and(eq(robots.userId, row.userId), eq(robots.hardwareHash, row.hardwareHash)));
    if (!existing) throw new Error('robot neither inserted nor found');
    return { robot: existing, created: false };
  },

  /** `lock`: FOR UPDATE, so a read-merge-write in the caller's transaction is not raced. */
  async byIdOfOwner(
    db: Executor,
    id: string,
    userId: string,
    opts: { lock?: boolean } = {},
  ): Promise<RobotRow | undefined> {
    const query = db
      .select()
      .from(robots)
      .where(and(eq(robots.id, id), eq(robots.userId, userId)));
    const [row] = opts.lock ? await query.for('update') : await query;
    return row;
  },

  /**
   * What a dial (UPDATE_TIME) needs to know of a robot, in one statement: whether anyone registered
   * it, and its model if the caller can see it by GetRobots' rule (their own, or bound to a license
   * with a live share to them: visibleQuery). Undefined when no robot has this id.
   */
  async dialTarget(
    db: Executor,
    userId: string,
    id: string,
    now: Date,
  ): Promise<{ visible: boolean; model: string } | undefined> {
    const at = sql`${now.toISOString()}::timestamptz`;
    const [row] = await db
      .select({
        model: robots.model,
        visible: sql<boolean>`("robots"."user_id" = ${userId}::uuid or exists (
          select 1 from robot_licenses l join license_shares x on x.license_id = l.id
          where l.robot_id = "robots"."id" and x.recipient_id = ${userId}::uuid and x.stopped_at is null
            and x.ends_at > ${at} and l.ends_at > ${at}))`,
      })
      .from(robots)
      .where(eq(robots.id, id));
    return row;
  },

  async ofUser(db: Executor, userId: string): Promise<RobotRow[]> {
    return db.select().from(robots).where(eq(robots.userId, userId)).orderBy(robots.registeredAt, robots.id);
  },

  async byIds(db: Executor, ids: readonly string[]): Promise<RobotRow[]> {
    if (ids.length === 0) return [];
    return db
      .select()
      .from(robots)
      .where(inArray(robots.id, [...ids]))
      .orderBy(robots.registeredAt, robots.id);
  },

  /** Updates name, availability and configuration (the whole new configuration: the service merges it). */
  async update(
    db: Executor,
    id: string,
    userId: string,
    patch: {
      name?: string;
      available?: boolean;
      config?: Record<string, unknown>;
      location?: { lat: number; lon: number };
      /** the robot reported: last seen */
      seenAt?: Date;
      now: Date;
    },
  ): Promise<RobotRow | undefined> {
    const [row] = await db
      .update(robots)
      .set({
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(patch.available !== undefined ? { available: patch.available } : {}),
        ...(patch.config !== undefined ? { config: patch.config } : {}),
        ...(patch.location ? { latitude: patch.location.lat, longitude: patch.location.lon } : {}),
        ...(patch.seenAt ? { lastSeenAt: patch.seenAt } : {}),
        updatedAt: patch.now,
      })
      .where(and(eq(robots.id, id), eq(robots.userId, userId)))
      .returning();
    return row;
  },

  async delete(db: Executor, id: string, userId: string): Promise<boolean> {
    const rows = await db
      .delete(robots)
      .where(and(eq(robots.id, id), eq(robots.userId, userId)))
      .returning({ id: robots.id });
    return rows.length > 0;
  },
};

import {
  ApiError,
  type GeoRange,
  jsonBytes,
  MAX_ROBOT_CONFIG_BYTES,
  type Robot,
  type RobotLicense,
  type RobotLocation,
  robotAvailable,
} from '@portal/contract';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { isUuid } from '../../lib/keys.ts';
import { JsonAnswer } from '../../plugins/actions.ts';
import { type EventPublisher, NO_EVENTS } from '../events/events.service.ts';
import type { Account, LicenseService, RobotLicenseRow } from '../license/license.service.ts';
import { type RobotRow, robotRepository as repo } from './robots.repository.ts';

const NO_ROBOT = 'robot_id: no robot with this id is registered to your account';

/**
 * Robots (docs/architecture.md#robots-licenses-and-dial-time): the hub registers them and reports their state; the portal reads those the
 * user registered and those bound to a license shared with the user (read-only, no hardware hash).
 */
export class RobotService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly licenses: LicenseService,
    private readonly events: EventPublisher = NO_EVENTS,
    /** how far back the first silence sweep of this process looks (its interval) */
    private readonly sweepWindowMs = 60_000,
  ) {}

  private lastSweep: Date | undefined;

  /** The robot, if it is registered to this user. */
  async ownRobot(userId: string, robotId: string): Promise<RobotRow | undefined> {
    return repo.byIdOfOwner(this.db, robotId, userId);
  }

  /**
   * A dial's robot: undefined when nobody registered this id; `model` only when the caller can see
   * the robot (the history names it by that), else null.
   */
  async dialTarget(account: Account, robotId: string): Promise<{ model: string | null } | undefined> {
    if (!isUuid(robotId)) return undefined;
    const row = await repo.dialTarget(this.db, account.userId, robotId, this.clock.now());
    return row && { model: row.visible ? row.model : null };
  }

  private view(row: RobotRow, license: RobotLicenseRow | undefined, owner: boolean): Robot {
    return {
      robot_id: row.id,
      make: row.make,
      model: row.model,
      name: row.name,
      hardware_hash: owner ? row.hardwareHash : '',
      license: { license_id: license?.id ?? '' },
      join_date: row.registeredAt.getTime(),
      robot_config: row.config,
      robot_state: {
        available: robotAvailable({
          reportedAvailable: row.available,
          lastSeenMs: row.lastSeenAt?.getTime(),
          nowMs: this.clock.now().getTime(),
        }),
        ...(owner && row.latitude !== null && row.longitude !== null
          ? { location: { lat: row.latitude, lon: row.longitude } }
          : {}),
      },
      pair_code: '',
      isFlexible: license?.isFlexible ?? false,
      last_seen: row.lastSeenAt?.getTime() ?? 0,
    };
  }

  private async ownViews(row: RobotRow): Promise<Robot> {
    return this.view(row, await this.licenses.ofRobot(this.db, row.id), true);
  }

  /**
   * GetRobots: of the robots asked about, those the user registered or holds a live share of; an
   * empty question answers every robot the user registered. Ids that are not the user's are left
   * out silently, as if they did not exist.
   */
  async visible(
    account: Account,
    refs: readonly { robot_id: string }[],
  ): Promise<JsonAnswer<{ robots: Robot[]; robot_licenses: RobotLicense[]; geo_range: GeoRange }>> {
    const ids = refs.length === 0 ? undefined : [...new Set(refs.map((r) => r.robot_id).filter(isUuid))];
    const answer = await repo.visibleJson(this.db, account.userId, ids, this.clock.now());
    return new JsonAnswer({
      robots: answer.robots,
      robot_licenses: answer.robot_licenses,
      geo_range: answer.geo_range,
    });
  }

  /**
   * UPDATE_TIME: a robot was dialled, which counts as its report (last seen). A robot reported
   * available that had gone silent is available again: its viewers are told.
   */
  async reported(robotId: string): Promise<void> {
    if (!isUuid(robotId)) return;
    const now = this.clock.now();
    await this.db.transaction(async (tx) => {
      const before = await repo.markSeen(tx, robotId, now);
      if (!before?.available) return;
      const wasLive = robotAvailable({
        reportedAvailable: true,
        lastSeenMs: before.seenBefore?.getTime(),
        nowMs: now.getTime(),
      });
      if (!wasLive) await this.events.publish(tx, { kind: 'robot.availability', robot_id: robotId, available: true });
    });
  }

  /**
   * The silence sweep (issue 32 item 5, docs/decisions/067): robots reported available whose hub
   * stopped reporting are Inactive once ROBOT_REPORT_TIMEOUT_MS has passed (GetRobots answers so
   * from the clock alone); this tells the pages watching them, once per robot, as the timeout
   * passes. Each run covers the time since the previous one; one instance at a time runs it.
   * Answers the robots that went silent, or undefined when another instance held the sweep.
   */
  async sweepSilent(): Promise<string[] | undefined> {
    const now = this.clock.now();
    const from = this.lastSweep ?? new Date(now.getTime() - this.sweepWindowMs);
    const swept = await this.db.transaction(async (tx) => {
      if (!(await repo.trySweepLock(tx))) return undefined;
      const ids = await repo.wentSilent(tx, from, now);
      for (const id of ids)
        await this.events.publish(tx, { kind: 'robot.availability', robot_id: id, available: false });
      return ids;
    });
    if (swept !== undefined) this.lastSweep = now;
    return swept;
  }

  async register(
    account: Account,
    input: { make: string; model: string; name: string; hardwareHash: string },
  ): Promise<Robot> {
    const { robot, created } = await repo.register(this.db, {
      userId: account.userId,
      ...input,
      now: this.clock.now(),
    });
    if (created) await this.events.publish(this.db, { kind: 'robot.registered', robot_id: robot.id });
    return this.ownViews(robot);
  }

  /**
   * UPDATEROBOT, UPDATEMODALITIES. Configuration keys are merged into what is stored; the merged
   * configuration is bounded (MAX_ROBOT_CONFIG_BYTES), so repeated calls cannot grow it for ever.
   * A `report` (UPDATEROBOT) is the robot speaking: it sets last seen, and may move it. A change of
   * availability, name or configuration is published in the same transaction.
   */
  async update(
    account: Account,
    robotId: string,
    patch: {
      name?: string | undefined;
      available?: boolean | undefined;
      config?: Record<string, unknown> | undefined;
      location?: RobotLocation | undefined;
      report?: boolean;
    },
  ): Promise<Robot> {
    const row = isUuid(robotId)
      ? await this.db.transaction(async (tx) => {
          const current = await repo.byIdOfOwner(tx, robotId, account.userId, { lock: true });
          if (!current) return undefined;
          const config = patch.config === undefined ? undefined : { ...current.config, ...patch.config };
          const size = config === undefined ? 0 : jsonBytes(config);
          if (size > MAX_ROBOT_CONFIG_BYTES)
            throw new ApiError(
              'VALIDATION',
              `robot_config: the merged configuration would be ${size} bytes as JSON; it may be at most ${MAX_ROBOT_CONFIG_BYTES}`,
            );
          const now = this.clock.now();
          const updated = await repo.update(tx, robotId, account.userId, {
            ...(patch.name !== undefined ? { name: patch.name } : {}),
            ...(patch.available !== undefined ? { available: patch.available } : {}),
            ...(config !== undefined ? { config } : {}),
            ...(patch.location ? { location: patch.location } : {}),
            ...(patch.report ? { seenAt: now } : {}),
            now,
          });
          // Availability as GetRobots answers it (robotAvailable): a report from a robot that had
          // gone silent makes it available again even when the stored state did not change.
          const live = (r: RobotRow | undefined) =>
            r !== undefined &&
            robotAvailable({
              reportedAvailable: r.available,
              lastSeenMs: r.lastSeenAt?.getTime(),
              nowMs: now.getTime(),
            });
          if (updated && live(updated) !== live(current))
            await this.events.publish(tx, {
              kind: 'robot.availability',
              robot_id: updated.id,
              available: live(updated),
            });
          // Both configurations come from jsonb, so equal ones print alike.
          const renamed = updated && updated.name !== current.name;
          const reconfigured = updated && JSON.stringify(updated.config) !== JSON.stringify(current.config);
          if (updated && (renamed || reconfigured))
            await this.events.publish(tx, { kind: 'robot.updated', robot_id: updated.id });
          return updated;
        })
      : undefined;
    if (!row) throw new ApiError('NOT_FOUND', NO_ROBOT);
    return this.ownViews(row);
  }

  /** UNREGISTER: the robot goes; a license bound to it becomes unpaired with a new code. */
  async unregister(account: Account, robotId: string): Promise<void> {
    const deleted =
      isUuid(robotId) &&
      (await this.db.transaction(async (tx) => {
        const robot = await repo.byIdOfOwner(tx, robotId, account.userId);
        if (!robot) return false;
        // Published first: who hears of it (the owner, the license's sharees) is read while the robot is there.
        await this.events.publish(tx, { kind: 'robot.unregistered', robot_id: robot.id });
        await this.licenses.releaseRobot(tx, robot.id);
        return repo.delete(tx, robot.id, account.userId);
      }));
    if (!deleted) throw new ApiError('NOT_FOUND', NO_ROBOT);
  }
}

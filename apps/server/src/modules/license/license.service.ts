import { randomUUID } from 'node:crypto';
import {
  ApiError,
  type AssetLicense,
  AssetType,
  DEFAULT_LICENSE_DURATION_S,
  type License,
  type RobotLicense,
  type UserLicenses,
} from '@portal/contract';
import { type Db, type Executor, pgErrorCode } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { isUuid } from '../../lib/keys.ts';
import type { Caller } from '../auth/auth.sessions.ts';
import { type EventPublisher, NO_EVENTS } from '../events/events.service.ts';
import { type IssuedCode, PairCodes } from './license.pair-codes.ts';
import {
  type AssetLicenseRow,
  type RobotLicenseRow,
  licenseRepository as repo,
  type ShareRow,
} from './license.repository.ts';

export type { RobotLicenseRow };

const NO_LICENSE = 'license_id: no license with this id on your account';

/** The signed-in account a license action is for. */
export type Account = Pick<Caller, 'userId' | 'email'>;

/**
 * What licensing asks of the robot module. Given as a lookup rather than its service, because the
 * robot service itself needs this one (built in the composition root).
 */
export interface LicensePeers {
  /** the robot, if it is registered to this user */
  ownRobot(userId: string, robotId: string): Promise<{ id: string } | undefined>;
  /** where pairing and unpairing are published (docs/decisions/031); nowhere by default */
  events?: EventPublisher;
}

export interface GrantInput {
  userId: string;
  model: string;
  make?: string;
  assetId?: string;
  durationS?: number;
  isFlexible?: boolean;
  source: RobotLicenseRow['source'];
  /** when the license starts; now by default */
  startsAt?: Date;
}

function licenseOf(row: {
  id: string;
  startsAt: Date;
  durationS: number;
  endsAt: Date;
  resellerInfo: License['reseller_info'] | null;
}): License {
  return {
    license_id: row.id,
    start_date: row.startsAt.getTime(),
    duration: row.durationS,
    end_date: row.endsAt.getTime(),
    ...(row.resellerInfo ? { reseller_info: row.resellerInfo } : {}),
  };
}

/**
 * Robot licenses and pairing (docs/architecture.md#robots-licenses-and-dial-time, docs/decisions/007); sharing is
 * `ShareService` (license.sharing.ts). Used by the license and robot routes, the operator command line and the demo seed.
 */
export class LicenseService {
  readonly codes: PairCodes;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    secret: string,
    private readonly peers: LicensePeers,
  ) {
    this.codes = new PairCodes(secret);
  }

  // ---- lookups for the robot and dial-time modules ----

  /** The license bound to a robot, if any. */
  ofRobot(ex: Executor, robotId: string): Promise<RobotLicenseRow | undefined> {
    return repo.byRobot(ex, robotId);
  }

  ofRobots(robotIds: string[]): Promise<RobotLicenseRow[]> {
    return repo.byRobots(this.db, robotIds);
  }

  /** Robot licenses by id: the subscription lifecycle names their models in its emails. */
  byIds(ex: Executor, ids: readonly string[]): Promise<RobotLicenseRow[]> {
    return repo.byIds(ex, ids);
  }

  /**
   * Moves the end of a license (docs/decisions/019): a driver subscription's renewal extends it, a
   * refund or an account's deletion ends it now. A license stops working at its end (coversRobot).
   */
  setEnd(ex: Executor, licenseId: string, endsAt: Date): Promise<void> {
    return repo.setEnd(ex, licenseId, endsAt, this.clock.now());
  }

  /** The live shares others gave this user, with their licenses. */
  sharedWith(userId: string, now: Date) {
    return repo.sharedWith(this.db, userId, now);
  }

  /** Whether the user's own live license covers this robot (dial time is not metered then). */
  async coversRobot(robotId: string, userId: string): Promise<boolean> {
    if (!isUuid(robotId)) return false;
    const license = await repo.byRobot(this.db, robotId);
    return Boolean(license && license.userId === userId && license.endsAt > this.clock.now());
  }

  // ---- views ----

  private get events(): EventPublisher {
    return this.peers.events ?? NO_EVENTS;
  }

  /**
   * The owner's view: an unpaired license shows its pairing code, and since when it is unpaired; a
   * paired one when it was paired (the Robot Manager marks unused licenses from them, issue 15).
   */
  ownerView(row: RobotLicenseRow): RobotLicense {
    const code = !row.robotId && row.pairCodeSealed ? this.codes.open(row.pairCodeSealed, row.id) : undefined;
    return {
      robot_id: row.robotId ?? '',
      asset_id: row.assetId,
      robot_license: licenseOf(row),
      robot_make: row.robotMake,
      robot_model: row.robotModel,
      pair_code: code ?? '',
      paired_status: Boolean(row.robotId),
      isFlexible: row.isFlexible,
      ...(row.robotId
        ? row.pairedAt
          ? { paired_at: row.pairedAt.getTime() }
          : {}
        : { unpaired_since: (row.unpairedAt ?? row.createdAt).getTime() }),
    };
  }

  /** A shared license as recipients (and the owner's share list) see it: the share's period, never a code. */
  sharedView(license: RobotLicenseRow, share: ShareRow): RobotLicense {
    const { paired_at: _paired, unpaired_since: _unpaired, ...owners } = this.ownerView(license);
    return {
      ...owners,
      robot_license: {
        license_id: license.id,
        start_date: share.startsAt.getTime(),
        duration: Math.round((share.endsAt.getTime() - share.startsAt.getTime()) / 1000),
        end_date: share.endsAt.getTime(),
      },
      pair_code: '',
    };
  }

  private assetLicenseView(row: AssetLicenseRow): AssetLicense {
    return { asset_id: row.assetId, asset_license: licenseOf(row) };
  }

  // ---- granting ----

  /** A code no live license holds (a clash is a one-in-a-trillion event; five draws settle it). */
  private async newCode(ex: Executor, licenseId: string): Promise<IssuedCode> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const issued = this.codes.issue(licenseId);
      if (!(await repo.pairCodeTaken(ex, issued.hash))) return issued;
    }
    throw new Error('could not draw an unused pairing code');
  }

  /** A new unpaired robot license with its pairing code. */
  async grantRobotLicense(ex: Executor, input: GrantInput): Promise<{ license: RobotLicenseRow; code: string }> {
    const now = this.clock.now();
    const startsAt = input.startsAt ?? now;
    const durationS = input.durationS ?? DEFAULT_LICENSE_DURATION_S;
    const id = randomUUID();
    const code = await this.newCode(ex, id);
    const license = await repo.insert(ex, {
      id,
      userId: input.userId,
      assetId: input.assetId ?? '',
      robotMake: input.make ?? input.model,
      robotModel: input.model,
      isFlexible: input.isFlexible ?? false,
      startsAt,
      durationS,
      endsAt: new Date(startsAt.getTime() + durationS * 1000),
      pairCodeHash: code.hash,
      pairCodeSealed: code.sealed,
      pairCodeIssuedAt: now,
      source: input.source,
      createdAt: now,
      updatedAt: now,
    });
    // In the granting transaction (a purchase, an operator's grant, a flexible save): the owner's open pages hear of it.
    await this.events.publish(ex, { kind: 'license.granted', license_id: license.id });
    return { license, code: code.code };
  }

  /**
   * BUYASSET: an asset license for the account; a robot-driver asset also grants an unpaired robot
   * license for its model. One transaction.
   */
  async grantAsset(
    userId: string,
    input: { assetId: string; durationS?: number | undefined; source: 'purchase' | 'operator' },
    /** called in the granting transaction with the new asset license's id (an operator's grant: its audit entry) */
    onGranted?: (tx: Executor, assetLicenseId: string) => Promise<void>,
  ): Promise<{ assetLicense: AssetLicense; robotLicense?: RobotLicense; code?: string }> {
    return this.db.transaction(async (tx) => {
      const asset = await repo.asset(tx, input.assetId);
      if (!asset) throw new ApiError('NOT_FOUND', 'asset_id: no asset with this id');
      const now = this.clock.now();
      const durationS = input.durationS ?? DEFAULT_LICENSE_DURATION_S;
      const robot =
        asset.type === AssetType.RobotDriver
          ? await this.grantRobotLicense(tx, {
              userId,
              assetId: asset.id,
              make: asset.make,
              model: asset.model,
              durationS,
              source: input.source,
            })
          : undefined;
      const row = await repo.insertAssetLicense(tx, {
        userId,
        assetId: asset.id,
        startsAt: now,
        durationS,
        endsAt: new Date(now.getTime() + durationS * 1000),
        robotLicenseId: robot?.license.id ?? null,
        createdAt: now,
      });
      await onGranted?.(tx, row.id);
      return {
        assetLicense: this.assetLicenseView(row),
        ...(robot ? { robotLicense: this.ownerView(robot.license), code: robot.code } : {}),
      };
    });
  }

  /**
   * A robot-driver license a customer bought (fulfilment, docs/decisions/018): the asset license of
   * the driver asset when it exists, and the unpaired robot license with its pairing code. Runs in
   * the caller's transaction, so a failed fulfilment grants nothing.
   */
  async grantPurchasedDriver(
    ex: Executor,
    input: { userId: string; assetId: string; make: string; model: string; durationS: number },
  ): Promise<{ license: RobotLicenseRow; code: string }> {
    const asset = await repo.asset(ex, input.assetId);
    const now = this.clock.now();
    const robot = await this.grantRobotLicense(ex, {
      userId: input.userId,
      assetId: input.assetId,
      make: asset?.make ?? input.make,
      model: asset?.model ?? input.model,
      durationS: input.durationS,
      source: 'purchase',
    });
    if (asset)
      await repo.insertAssetLicense(ex, {
        userId: input.userId,
        assetId: asset.id,
        startsAt: now,
        durationS: input.durationS,
        endsAt: new Date(now.getTime() + input.durationS * 1000),
        robotLicenseId: robot.license.id,
        createdAt: now,
      });
    return robot;
  }

  // ---- reading ----

  async licensesOf(account: Account): Promise<UserLicenses> {
    const now = this.clock.now();
    const [own, shared, assetRows] = await Promise.all([
      // An ended license no longer works (no dialling, no pairing): the Robot Manager lists live ones;
      // the Subscription Manager's driver table keeps the history.
      repo.ofUser(this.db, account.userId, now),
      repo.sharedWith(this.db, account.userId, now),
      repo.assetLicensesOf(this.db, account.userId),
    ]);
    const robotLicenses: RobotLicense[] = [];
    for (const row of own) {
      // A code sealed under a previous JWT_SECRET cannot be shown: the owner gets a new one.
      const unreadable = !row.robotId && row.pairCodeSealed && !this.codes.open(row.pairCodeSealed, row.id);
      robotLicenses.push(this.ownerView(unreadable ? ((await this.reissue(row)) ?? row) : row));
    }
    return {
      email: account.email,
      asset_licenses: assetRows.map((r) => this.assetLicenseView(r)),
      robot_licenses: robotLicenses,
      shared_robot_licenses: shared.map(({ license, share }) => this.sharedView(license, share)),
    };
  }

  private async ownLicense(account: Account, licenseId: string): Promise<RobotLicenseRow> {
    const row = isUuid(licenseId) ? await repo.byIdOfOwner(this.db, licenseId, account.userId) : undefined;
    if (!row) throw new ApiError('NOT_FOUND', NO_LICENSE);
    return row;
  }

  // ---- pairing ----

  private async reissue(row: RobotLicenseRow, ex: Executor = this.db): Promise<RobotLicenseRow | undefined> {
    const code = await this.newCode(ex, row.id);
    return repo.setPairCode(ex, row.id, { hash: code.hash, sealed: code.sealed, issuedAt: this.clock.now() });
  }

  /** PAIRROBOT: the code of an unpaired license of this user binds the user's robot. */
  async pair(account: Account, input: { pairCode: string; robotId: string }): Promise<RobotLicense> {
    const robot = isUuid(input.robotId) ? await this.peers.ownRobot(account.userId, input.robotId) : undefined;
    if (!robot) throw new ApiError('NOT_FOUND', 'robot_id: no robot with this id is registered to your account');
    const bound = await repo.byRobot(this.db, robot.id);
    if (bound) throw new ApiError('CONFLICT', 'robot_id: this robot is already paired with a license; unpair it first');
    const row = await repo
      .redeem(this.db, {
        hash: this.codes.hash(input.pairCode),
        userId: account.userId,
        robotId: robot.id,
        now: this.clock.now(),
      })
      .catch((err: unknown) => {
        // A concurrent pairing of the same robot lost the race on robot_licenses.robot_id.
        if (pgErrorCode(err) === '23505')
          throw new ApiError('CONFLICT', 'robot_id: this robot is already paired with a license', { cause: err });
        throw err;
      });
    if (!row) throw new ApiError('NOT_FOUND', 'pair_code: invalid or already used pairing code');
    await this.events.publish(this.db, { kind: 'license.paired', license_id: row.id, robot_id: robot.id });
    return this.ownerView(row);
  }

  /** REGENERATEPAIRCODE: a new code for an unpaired license; the old one stops working. */
  async regenerate(account: Account, licenseId: string): Promise<RobotLicense> {
    const row = await this.ownLicense(account, licenseId);
    if (row.robotId) throw new ApiError('CONFLICT', 'license_id: the license is paired; unpair it to get a new code');
    const updated = await this.reissue(row);
    if (!updated) throw new ApiError('CONFLICT', 'license_id: the license was paired meanwhile');
    return this.ownerView(updated);
  }

  /**
   * UNPAIR: the license lets its robot go and gets a new code. `onUnpaired` runs in the transaction
   * (a staff member's unpairing writes its audit entry there).
   */
  async unpair(
    account: Account,
    licenseId: string,
    onUnpaired?: (tx: Executor, row: RobotLicenseRow) => Promise<void>,
  ): Promise<RobotLicense> {
    const row = await this.ownLicense(account, licenseId);
    if (!row.robotId) throw new ApiError('CONFLICT', 'license_id: the license is not paired');
    const updated = await this.db.transaction(async (tx) => {
      await onUnpaired?.(tx, row);
      const code = await this.newCode(tx, row.id);
      const unbound = await repo.unbind(tx, row.id, {
        hash: code.hash,
        sealed: code.sealed,
        issuedAt: this.clock.now(),
      });
      await this.events.publish(tx, {
        kind: 'license.unpaired',
        license_id: row.id,
        robot_id: row.robotId ?? undefined,
      });
      return unbound;
    });
    return this.ownerView(updated ?? row);
  }

  /** A robot is going away (UNREGISTER): its license becomes unpaired with a new code. */
  async releaseRobot(ex: Executor, robotId: string): Promise<void> {
    const row = await repo.byRobot(ex, robotId);
    if (!row) return;
    const code = await this.newCode(ex, row.id);
    await repo.unbind(ex, row.id, { hash: code.hash, sealed: code.sealed, issuedAt: this.clock.now() });
  }
}

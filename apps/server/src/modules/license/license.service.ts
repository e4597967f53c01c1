import { randomUUID } from 'node:crypto';
import {
  ApiError,
  type AssetLicence,
  AssetType,
  DEFAULT_LICENCE_DURATION_S,
  type Licence,
  type RobotLicence,
  type SharedRobotEntry,
  type UserLicences,
} from '@portal/contract';
import { type Db, type Executor, pgErrorCode } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { isUuid } from '../../lib/keys.ts';
import { robotRepository } from '../robots/robots.repository.ts';
import { userRepository } from '../useraction/useraction.repository.ts';
import { type IssuedCode, PairCodes } from './license.pair-codes.ts';
import {
  type AssetLicenceRow,
  type RobotLicenceRow,
  licenceRepository as repo,
  type ShareRow,
} from './license.repository.ts';

const NO_LICENCE = 'license_id: no licence with this id on your account';

export interface Account {
  userId: string;
  email: string;
}

export interface GrantInput {
  userId: string;
  model: string;
  make?: string;
  assetId?: string;
  durationS?: number;
  isFlexible?: boolean;
  source: RobotLicenceRow['source'];
  /** when the licence starts; now by default */
  startsAt?: Date;
}

function licenceOf(row: {
  id: string;
  startsAt: Date;
  durationS: number;
  endsAt: Date;
  resellerInfo: Licence['reseller_info'] | null;
}): Licence {
  return {
    license_id: row.id,
    start_date: row.startsAt.getTime(),
    duration: row.durationS,
    end_date: row.endsAt.getTime(),
    ...(row.resellerInfo ? { reseller_info: row.resellerInfo } : {}),
  };
}

/**
 * Robot licences, pairing and sharing (DESIGN §4, docs/decisions/007). Used by the licence and
 * robot routes, the operator command line and the demo seed.
 */
export class LicenceService {
  readonly codes: PairCodes;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    secret: string,
  ) {
    this.codes = new PairCodes(secret);
  }

  // ---- views ----

  /** The owner's view: an unpaired licence shows its pairing code. */
  ownerView(row: RobotLicenceRow): RobotLicence {
    const code = !row.robotId && row.pairCodeSealed ? this.codes.open(row.pairCodeSealed, row.id) : undefined;
    return {
      robot_id: row.robotId ?? '',
      asset_id: row.assetId,
      robot_license: licenceOf(row),
      robot_make: row.robotMake,
      robot_model: row.robotModel,
      pair_code: code ?? '',
      paired_status: Boolean(row.robotId),
      isFlexible: row.isFlexible,
    };
  }

  /** A shared licence as recipients (and the owner's share list) see it: the share's period, never a code. */
  sharedView(licence: RobotLicenceRow, share: ShareRow): RobotLicence {
    return {
      ...this.ownerView(licence),
      robot_license: {
        license_id: licence.id,
        start_date: share.startsAt.getTime(),
        duration: Math.round((share.endsAt.getTime() - share.startsAt.getTime()) / 1000),
        end_date: share.endsAt.getTime(),
      },
      pair_code: '',
    };
  }

  private assetLicenceView(row: AssetLicenceRow): AssetLicence {
    return { asset_id: row.assetId, asset_license: licenceOf(row) };
  }

  // ---- granting ----

  /** A code no live licence holds (a clash is a one-in-a-trillion event; five draws settle it). */
  private async newCode(ex: Executor, licenceId: string): Promise<IssuedCode> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const issued = this.codes.issue(licenceId);
      if (!(await repo.pairCodeTaken(ex, issued.hash))) return issued;
    }
    throw new Error('could not draw an unused pairing code');
  }

  /** A new unpaired robot licence with its pairing code. */
  async grantRobotLicence(ex: Executor, input: GrantInput): Promise<{ licence: RobotLicenceRow; code: string }> {
    const now = this.clock.now();
    const startsAt = input.startsAt ?? now;
    const durationS = input.durationS ?? DEFAULT_LICENCE_DURATION_S;
    const id = randomUUID();
    const code = await this.newCode(ex, id);
    const licence = await repo.insert(ex, {
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
    return { licence, code: code.code };
  }

  /**
   * BUYASSET: an asset licence for the account; a robot-driver asset also grants an unpaired robot
   * licence for its model. One transaction.
   */
  async grantAsset(
    userId: string,
    input: { assetId: string; durationS?: number | undefined; source: 'purchase' | 'operator' },
  ): Promise<{ assetLicence: AssetLicence; robotLicence?: RobotLicence; code?: string }> {
    return this.db.transaction(async (tx) => {
      const asset = await repo.asset(tx, input.assetId);
      if (!asset) throw new ApiError('NOT_FOUND', 'asset_id: no asset with this id');
      const now = this.clock.now();
      const durationS = input.durationS ?? DEFAULT_LICENCE_DURATION_S;
      const robot =
        asset.type === AssetType.RobotDriver
          ? await this.grantRobotLicence(tx, {
              userId,
              assetId: asset.id,
              make: asset.make,
              model: asset.model,
              durationS,
              source: input.source,
            })
          : undefined;
      const row = await repo.insertAssetLicence(tx, {
        userId,
        assetId: asset.id,
        startsAt: now,
        durationS,
        endsAt: new Date(now.getTime() + durationS * 1000),
        robotLicenceId: robot?.licence.id ?? null,
        createdAt: now,
      });
      return {
        assetLicence: this.assetLicenceView(row),
        ...(robot ? { robotLicence: this.ownerView(robot.licence), code: robot.code } : {}),
      };
    });
  }

  // ---- reading ----

  async licencesOf(account: Account): Promise<UserLicences> {
    const now = this.clock.now();
    const [own, shared, assetRows] = await Promise.all([
      repo.ofUser(this.db, account.userId),
      repo.sharedWith(this.db, account.userId, now),
      repo.assetLicencesOf(this.db, account.userId),
    ]);
    const robotLicences: RobotLicence[] = [];
    for (const row of own) {
      // A code sealed under a previous JWT_SECRET cannot be shown: the owner gets a new one.
      const unreadable = !row.robotId && row.pairCodeSealed && !this.codes.open(row.pairCodeSealed, row.id);
      robotLicences.push(this.ownerView(unreadable ? ((await this.reissue(row)) ?? row) : row));
    }
    return {
      email: account.email,
      asset_licenses: assetRows.map((r) => this.assetLicenceView(r)),
      robot_licenses: robotLicences,
      shared_robot_licenses: shared.map(({ licence, share }) => this.sharedView(licence, share)),
    };
  }

  private async ownLicence(account: Account, licenceId: string): Promise<RobotLicenceRow> {
    const row = isUuid(licenceId) ? await repo.byIdOfOwner(this.db, licenceId, account.userId) : undefined;
    if (!row) throw new ApiError('NOT_FOUND', NO_LICENCE);
    return row;
  }

  // ---- pairing ----

  private async reissue(row: RobotLicenceRow, ex: Executor = this.db): Promise<RobotLicenceRow | undefined> {
    const code = await this.newCode(ex, row.id);
    return repo.setPairCode(ex, row.id, { hash: code.hash, sealed: code.sealed, issuedAt: this.clock.now() });
  }

  /** PAIRROBOT: the code of an unpaired licence of this user binds the user's robot. */
  async pair(account: Account, input: { pairCode: string; robotId: string }): Promise<RobotLicence> {
    const robot = isUuid(input.robotId)
      ? await robotRepository.byIdOfOwner(this.db, input.robotId, account.userId)
      : undefined;
    if (!robot) throw new ApiError('NOT_FOUND', 'robot_id: no robot with this id is registered to your account');
    const bound = await repo.byRobot(this.db, robot.id);
    if (bound) throw new ApiError('CONFLICT', 'robot_id: this robot is already paired with a licence; unpair it first');
    const row = await repo
      .redeem(this.db, {
        hash: this.codes.hash(input.pairCode),
        userId: account.userId,
        robotId: robot.id,
        now: this.clock.now(),
      })
      .catch((err: unknown) => {
        // A concurrent pairing of the same robot lost the race on robot_licences.robot_id.
        if (pgErrorCode(err) === '23505')
          throw new ApiError('CONFLICT', 'robot_id: this robot is already paired with a licence', { cause: err });
        throw err;
      });
    if (!row) throw new ApiError('NOT_FOUND', 'pair_code: invalid or already used pairing code');
    return this.ownerView(row);
  }

  /** REGENERATEPAIRCODE: a new code for an unpaired licence; the old one stops working. */
  async regenerate(account: Account, licenceId: string): Promise<RobotLicence> {
    const row = await this.ownLicence(account, licenceId);
    if (row.robotId) throw new ApiError('CONFLICT', 'license_id: the licence is paired; unpair it to get a new code');
    const updated = await this.reissue(row);
    if (!updated) throw new ApiError('CONFLICT', 'license_id: the licence was paired meanwhile');
    return this.ownerView(updated);
  }

  /** UNPAIR: the licence lets its robot go and gets a new code. */
  async unpair(account: Account, licenceId: string): Promise<RobotLicence> {
    const row = await this.ownLicence(account, licenceId);
    if (!row.robotId) throw new ApiError('CONFLICT', 'license_id: the licence is not paired');
    const code = await this.newCode(this.db, row.id);
    const updated = await repo.unbind(this.db, row.id, {
      hash: code.hash,
      sealed: code.sealed,
      issuedAt: this.clock.now(),
    });
    return this.ownerView(updated ?? row);
  }

  /** A robot is going away (UNREGISTER): its licence becomes unpaired with a new code. */
  async releaseRobot(ex: Executor, robotId: string): Promise<void> {
    const row = await repo.byRobot(ex, robotId);
    if (!row) return;
    const code = await this.newCode(ex, row.id);
    await repo.unbind(ex, row.id, { hash: code.hash, sealed: code.sealed, issuedAt: this.clock.now() });
  }

  // ---- sharing ----

  async sharesOf(account: Account): Promise<{ owner_email: string; sharees_robots: SharedRobotEntry[] }> {
    const rows = await repo.sharesOfOwner(this.db, account.userId, this.clock.now());
    return {
      owner_email: account.email,
      sharees_robots: rows.map(({ share, licence, recipientEmail }) => ({
        sharee_email: recipientEmail,
        license: this.sharedView(licence, share),
      })),
    };
  }

  /** SHARELICENSE: share a paired licence with another account until min(now + duration, licence end). */
  async share(account: Account, input: { licenceId: string; recipientEmail: string; durationS: number }) {
    if (input.recipientEmail === account.email)
      throw new ApiError('VALIDATION', 'recipient_email: you cannot share a licence with yourself');
    const licence = await this.ownLicence(account, input.licenceId);
    const now = this.clock.now();
    if (licence.endsAt <= now) throw new ApiError('CONFLICT', 'license_id: the licence has ended');
    if (!licence.robotId) throw new ApiError('CONFLICT', 'license_id: pair the licence with a robot before sharing it');
    const recipient = await userRepository.byEmail(this.db, input.recipientEmail);
    if (!recipient) throw new ApiError('NOT_FOUND', 'recipient_email: no account with this email');
    const endsAt = new Date(Math.min(now.getTime() + input.durationS * 1000, licence.endsAt.getTime()));
    // Sharing again with the same person replaces the share (a new period), never stacks two.
    await this.db.transaction(async (tx) => {
      await repo.stopShares(tx, licence.id, recipient.id, now);
      await repo.insertShare(tx, {
        licenceId: licence.id,
        ownerId: account.userId,
        recipientId: recipient.id,
        startsAt: now,
        endsAt,
        createdAt: now,
      });
    });
    return this.sharesOf(account);
  }

  /** STOPSHAREDLICENSE: with one recipient, or everyone when none is named. */
  async stopSharing(account: Account, input: { licenceId: string; recipientEmail?: string | undefined }) {
    const licence = await this.ownLicence(account, input.licenceId);
    let recipientId: string | undefined;
    if (input.recipientEmail !== undefined) {
      const recipient = await userRepository.byEmail(this.db, input.recipientEmail);
      if (!recipient) throw new ApiError('NOT_FOUND', 'recipient_email: no account with this email');
      recipientId = recipient.id;
    }
    const stopped = await repo.stopShares(this.db, licence.id, recipientId, this.clock.now());
    if (stopped === 0)
      throw new ApiError(
        'NOT_FOUND',
        input.recipientEmail !== undefined
          ? 'recipient_email: the licence is not shared with this account'
          : 'license_id: the licence is not shared with anyone',
      );
    return this.sharesOf(account);
  }
}

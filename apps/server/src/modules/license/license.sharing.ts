import { createHash } from 'node:crypto';
import { ApiError, ONE_DAY_S, type SharedRobotEntry } from '@portal/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Executor } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { isUuid } from '../../lib/keys.ts';
import type { Mailer } from '../../lib/mailer.ts';
import type { RateLimiter } from '../../lib/rate-limit.ts';
import { type EventPublisher, NO_EVENTS } from '../events/events.service.ts';
import { sharedWithYouMail, shareInvitationMail } from './license.mails.ts';
import { type RobotLicenseRow, licenseRepository as repo } from './license.repository.ts';
import type { Account, LicenseService } from './license.service.ts';

/** The defaults of the configuration's SHARE_INVITE_WINDOW_S, SHARE_INVITES_PER_SENDER and
 * SHARE_INVITES_PER_RECIPIENT. The window of the two invitation caps: one day (docs/decisions/023). */
export const SHARE_INVITE_WINDOW_S = ONE_DAY_S;
/** Shares one owner may start per window: each one mails its recipient. */
export const SHARE_INVITES_PER_SENDER = 20;
/** Share mails one address may get per window, from every owner together. */
export const SHARE_INVITES_PER_RECIPIENT = 5;

export const STOP_LIMITED = 'Too many changes to shares. Please try again later.';
export const SENDER_LIMITED = 'Too many shares today. Please try again tomorrow.';
export const RECIPIENT_LIMITED =
  'recipient_email: This address has had too many invitations today. Please try again tomorrow.';
const NO_LICENSE = 'license_id: no license with this id on your account';

/** What sharing asks of the account module. */
export interface SharingPeers {
  /** the account of an address, only if the address is verified */
  verifiedAccount(email: string): Promise<{ id: string } | undefined>;
}

/** The per-recipient counter's key: the address is hashed, so the counters table holds no addresses. */
const recipientKey = (email: string) => `share:to:${createHash('sha256').update(email).digest('hex').slice(0, 32)}`;

/**
 * Sharing a robot license with an email address (SHARELICENSE, STOPSHAREDLICENSE, GETSHAREDLICENSES).
 * Every answer is the same whether or not the address has an account: an address without a verified
 * account gets an invitation and the share waits, pending, until it is verified (docs/decisions/023).
 */
export class ShareService {
  constructor(
    private readonly deps: {
      db: Db;
      clock: Clock;
      mailer: Mailer;
      limiter: RateLimiter;
      licenses: LicenseService;
      /** where shares starting and ending are published (docs/decisions/031) */
      events?: EventPublisher;
      publicUrl: string;
      peers: SharingPeers;
      /** the configured caps (config.ts); the constants above by default */
      limits?: { perSender: number; perRecipient: number; windowS: number; stopsPerHour: number };
    },
  ) {}

  private get events(): EventPublisher {
    return this.deps.events ?? NO_EVENTS;
  }

  private get limits() {
    return (
      this.deps.limits ?? {
        perSender: SHARE_INVITES_PER_SENDER,
        perRecipient: SHARE_INVITES_PER_RECIPIENT,
        windowS: SHARE_INVITE_WINDOW_S,
        stopsPerHour: 30,
      }
    );
  }

  /** GETSHAREDLICENSES: the owner's live shares, pending ones looking exactly like the others. */
  async sharesOf(account: Account): Promise<{ owner_email: string; sharees_robots: SharedRobotEntry[] }> {
    const rows = await repo.sharesOfOwner(this.deps.db, account.userId, this.deps.clock.now());
    return {
      owner_email: account.email,
      sharees_robots: rows.map(({ share, license }) => ({
        sharee_email: share.recipientEmail,
        license: this.deps.licenses.sharedView(license, share),
      })),
    };
  }

  private async ownLicense(ex: Executor, account: Account, licenseId: string): Promise<RobotLicenseRow> {
    const row = isUuid(licenseId) ? await repo.byIdOfOwner(ex, licenseId, account.userId) : undefined;
    if (!row) throw new ApiError('NOT_FOUND', NO_LICENSE);
    return row;
  }

  /** The refusals that depend only on what the owner sent and owns; none of them reads another account. */
  private async refusal(ex: Executor, account: Account, licenseId: string, recipientEmail: string, now: Date) {
    if (recipientEmail === account.email)
      throw new ApiError('VALIDATION', 'recipient_email: You cannot share a robot with yourself');
    const license = await this.ownLicense(ex, account, licenseId);
    if (license.endsAt <= now) throw new ApiError('CONFLICT', 'license_id: the license has ended');
    if (!license.robotId) throw new ApiError('CONFLICT', 'license_id: pair the license with a robot before sharing it');
    if (await repo.liveShareTo(ex, license.id, recipientEmail, now))
      throw new ApiError(
        'VALIDATION',
        'recipient_email: This robot is already shared with this address. Stop that share first to change it.',
      );
    return license;
  }

  /**
   * SHARELICENSE: shares a paired license with an address until min(now + duration, license end)
   * and mails the address. Refusals come first and change nothing; then the invitation caps; then
   * the share, made under a lock on the license so the same address cannot be added twice at once.
   */
  async share(
    account: Account,
    input: { licenseId: string; recipientEmail: string; durationS: number },
    log?: FastifyBaseLogger,
  ) {
    const { db, clock, limiter, peers } = this.deps;
    const email = input.recipientEmail;
    const now = clock.now();
    await this.refusal(db, account, input.licenseId, email, now);
    // Counted for every share alike, before the address is looked up: a limit that only some
    // addresses reach would tell which ones have accounts.
    const { perSender, perRecipient, windowS } = this.limits;
    await limiter.hit(`share:from:${account.userId}`, perSender, windowS, SENDER_LIMITED);
    await limiter.hit(recipientKey(email), perRecipient, windowS, RECIPIENT_LIMITED);
    const recipient = await peers.verifiedAccount(email);
    const { license, share } = await db.transaction(async (tx) => {
      const locked = await repo.lockOfOwner(tx, input.licenseId, account.userId);
      if (!locked) throw new ApiError('NOT_FOUND', NO_LICENSE);
      const license = await this.refusal(tx, account, locked.id, email, now);
      const share = await repo.insertShare(tx, {
        licenseId: license.id,
        ownerId: account.userId,
        recipientId: recipient?.id ?? null,
        recipientEmail: email,
        startsAt: now,
        endsAt: new Date(Math.min(now.getTime() + input.durationS * 1000, license.endsAt.getTime())),
        createdAt: now,
      });
      await this.events.publish(tx, {
        kind: 'share.started',
        license_id: license.id,
        robot_id: license.robotId ?? undefined,
      });
      return { license, share };
    });
    const mail = { to: email, ownerEmail: account.email, model: license.robotModel, until: share.endsAt };
    // The share stands either way: a mail that fails must not make the owner share twice.
    await this.deps.mailer
      .send(
        recipient
          ? sharedWithYouMail(mail, `${this.deps.publicUrl}/dashboard`)
          : shareInvitationMail(mail, `${this.deps.publicUrl}/auth/signup`),
      )
      .catch((err: unknown) => log?.warn({ err, share: share.id }, 'share mail not sent'));
    return this.sharesOf(account);
  }

  /**
   * STOPSHAREDLICENSE: with one address, or everyone when none is named. An address that is not a
   * live share of this license gets one answer, whatever it is (docs/decisions/023).
   */
  async stopSharing(account: Account, input: { licenseId: string; recipientEmail?: string | undefined }) {
    // Counted before anything is looked up: addresses cannot be tried against a license without end.
    await this.deps.limiter.hit(`share:stop:${account.userId}`, this.limits.stopsPerHour, 60 * 60, STOP_LIMITED);
    const license = await this.ownLicense(this.deps.db, account, input.licenseId);
    const stopped = await this.deps.db.transaction(async (tx) => {
      // Those the share reached hear that it ended: read before it stops, when they still count.
      const before = await this.events.recipients(tx, { licenseId: license.id });
      const count = await repo.stopShares(tx, license.id, input.recipientEmail, this.deps.clock.now());
      if (count > 0)
        await this.events.publish(
          tx,
          { kind: 'share.ended', license_id: license.id, robot_id: license.robotId ?? undefined },
          { also: before },
        );
      return count;
    });
    if (stopped === 0)
      throw new ApiError(
        'NOT_FOUND',
        input.recipientEmail !== undefined
          ? 'recipient_email: This robot is not shared with this address'
          : 'license_id: the license is not shared with anyone',
      );
    return this.sharesOf(account);
  }

  /** The account has just proved it owns its address: the shares waiting for that address become its own. */
  async claimPending(ex: Executor, account: { id: string; email: string }): Promise<void> {
    await repo.claimPending(ex, account.id, account.email);
  }
}

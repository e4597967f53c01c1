import { createHash, randomBytes } from 'node:crypto';
import { ApiError, ONE_DAY_MS, STAFF_ROLES, type StaffRole } from '@portal/contract';
import { and, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import { apiKeys, passkeys, sessions, staffEnrolments, users } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { newLinkToken } from '../../lib/tokens.ts';
import type { AuditInput, AuditService } from '../audit/audit.service.ts';

/** How long an enrolment link works. */
export const ENROLMENT_TTL_MS = ONE_DAY_MS;
/** API keys read `rpk_<12 characters>_<secret>`; the part before the secret is shown in lists. */
const KEY_PREFIX = 'rpk_';
/** A key's last use is written at most this often (a busy script would otherwise write per call). */
const LAST_USE_EVERY_MS = 60_000;
/** OPERATOR_TOKEN, while it is set, is this key (decision 070). */
export const LEGACY_KEY = { id: 'legacy', name: 'legacy', role: 'admin' } as const satisfies ApiKeyIdentity;

/** Who acts on the staff side: a staff member, an API key, or the command line on the host. */
export type StaffActor = { kind: 'staff'; userId: string } | { kind: 'key'; keyId: string } | { kind: 'cli' };

export interface ApiKeyIdentity {
  id: string;
  name: string;
  role: StaffRole;
}

/** The audit trail's actor of a staff-side actor. */
export const actorOf = (by: StaffActor): AuditInput['actor'] =>
  by.kind === 'staff'
    ? { kind: 'staff', id: by.userId }
    : by.kind === 'key'
      ? { kind: 'key', id: by.keyId }
      : { kind: 'system', id: 'cli' };
const actorId = (by: StaffActor) => (by.kind === 'staff' ? by.userId : by.kind === 'key' ? by.keyId : 'cli');
const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

function checkRole(role: string, field: string): StaffRole {
  const found = STAFF_ROLES.find((r) => r === role);
  if (!found) throw new ApiError('VALIDATION', `${field}: must be one of ${STAFF_ROLES.join(', ')}`);
  return found;
}

/**
 * Staff accounts and API keys (issue 34, docs/decisions/070). A staff member is an account with a
 * role; it enrols the passkey it will sign in with through a single-use link. API keys carry a role
 * too, are shown once and kept as a SHA-256. Every change here is one audit entry, in its transaction.
 */
export class StaffService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly audit: AuditService,
    private readonly publicUrl: string,
    private readonly legacyToken?: string,
  ) {}

  /**
   * `staff:add`: gives the account the role, making the account when there is none (its password
   * unusable: staff sign in with the passkey they enrol), and answers a single-use enrolment link.
   */
  async addStaff(input: { email: string; role: string; by: StaffActor }) {
    const role = checkRole(input.role, 'role');
    const email = input.email.trim().toLowerCase();
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new ApiError('VALIDATION', 'email: not an email address');
    // Hashed before the transaction: argon2 is slow and must not hold a connection.
    const unusable = await hashPassword(randomBytes(32).toString('base64url'));
    const now = this.clock.now();
    const { token, hash } = newLinkToken();
    return this.db.transaction(async (tx) => {
      const admins = await lockAdmins(tx);
      const [existing] = await tx.select().from(users).where(eq(users.email, email)).for('update');
      if (existing) keepLastAdmin(admins, existing, role);
      const user =
        existing ??
        (
          await tx
            .insert(users)
            .values({
              email,
              passwordHash: unusable,
              name: email.split('@')[0] ?? email,
              joinedAt: now,
              updatedAt: now,
            })
            // An account registered meanwhile (the same address at once) is taken as it is.
            .onConflictDoNothing({ target: users.email })
            .returning()
        )[0] ??
        (await tx.select().from(users).where(eq(users.email, email)).for('update'))[0];
      if (!user) throw new ApiError('CONFLICT', 'email: the account could not be made; try again');
      await tx.update(users).set({ staffRole: role, updatedAt: now }).where(eq(users.id, user.id));
      // A new link replaces any unused one.
      await tx
        .update(staffEnrolments)
        .set({ usedAt: now })
        .where(and(eq(staffEnrolments.userId, user.id), isNull(staffEnrolments.usedAt)));
      await tx.insert(staffEnrolments).values({
        userId: user.id,
        role,
        tokenHash: hash,
        createdBy: actorId(input.by),
        createdAt: now,
        expiresAt: new Date(now.getTime() + ENROLMENT_TTL_MS),
      });
      await this.audit.record(tx, {
        actor: actorOf(input.by),
        subjectUserId: user.id,
        kind: 'change',
        action: existing ? 'staff.role_set' : 'staff.add',
        changes: { staff_role: { before: existing?.staffRole ?? null, after: role } },
        personal: { email },
      });
      return {
        userId: user.id,
        created: !existing,
        role,
        link: `${this.publicUrl}/admin/enrol?token=${token}`,
        expiresAt: new Date(now.getTime() + ENROLMENT_TTL_MS),
      };
    });
  }

  /**
   * Takes a staff member's role away (null) or changes it; their next call already has the new one.
   * The last admin keeps the role (409): nobody would be left to manage staff or keys.
   */
  async setRole(input: { userId: string; role: string | null; by: StaffActor }): Promise<void> {
    const role = input.role === null ? null : checkRole(input.role, 'role');
    await this.db.transaction(async (tx) => {
      const admins = await lockAdmins(tx);
      const [user] = await tx.select().from(users).where(eq(users.id, input.userId)).for('update');
      if (!user) throw new ApiError('NOT_FOUND', 'user_id: no account with this id');
      if (user.staffRole === role) return;
      keepLastAdmin(admins, user, role);
      await tx.update(users).set({ staffRole: role, updatedAt: this.clock.now() }).where(eq(users.id, user.id));
      await this.audit.record(tx, {
        actor: actorOf(input.by),
        subjectUserId: user.id,
        kind: 'change',
        action: role ? 'staff.role_set' : 'staff.remove',
        changes: { staff_role: { before: user.staffRole, after: role } },
      });
    });
  }

  /** The enrolment a link stands for, while it is unused and unexpired. */
  async enrolment(token: string) {
    const [row] = await this.db
      .select()
      .from(staffEnrolments)
      .where(
        and(
          eq(staffEnrolments.tokenHash, sha256(token)),
          isNull(staffEnrolments.usedAt),
          gt(staffEnrolments.expiresAt, this.clock.now()),
        ),
      );
    return row;
  }

  /**
   * Finishes an enrolment in `tx` (the transaction that registers the passkey): the link is used up
   * (false when another request used it first), the address counts as verified, and one entry
   * `staff.enrol` records it.
   */
  async completeEnrolment(tx: Executor, enrolment: { id: string; userId: string; role: string }): Promise<boolean> {
    const now = this.clock.now();
    const [used] = await tx
      .update(staffEnrolments)
      .set({ usedAt: now })
      .where(and(eq(staffEnrolments.id, enrolment.id), isNull(staffEnrolments.usedAt)))
      .returning({ id: staffEnrolments.id });
    if (!used) return false;
    await tx.update(users).set({ emailValidated: true, updatedAt: now }).where(eq(users.id, enrolment.userId));
    await this.audit.record(tx, {
      actor: { kind: 'staff', id: enrolment.userId },
      subjectUserId: enrolment.userId,
      kind: 'change',
      action: 'staff.enrol',
      target: enrolment.id,
      changes: { email_validated: { before: null, after: true } },
      personal: { role: enrolment.role },
    });
    return true;
  }

  /** The account an enrolment is for: its address, for the passkey's user name. */
  async accountOf(userId: string) {
    const [row] = await this.db
      .select({ id: users.id, email: users.email, name: users.name, role: users.staffRole })
      .from(users)
      .where(eq(users.id, userId));
    return row;
  }

  // ---- API keys ----

  /** A new key; the secret is in the answer only, never stored. */
  async createKey(input: { name: string; role: string; by: StaffActor }) {
    const role = checkRole(input.role, 'role');
    const name = input.name.trim();
    if (name.length < 1 || name.length > 80) throw new ApiError('VALIDATION', 'name: 1 to 80 characters');
    if (name.toLowerCase() === LEGACY_KEY.name)
      throw new ApiError('VALIDATION', `name: "${LEGACY_KEY.name}" is OPERATOR_TOKEN's; choose another`);
    const prefix = `${KEY_PREFIX}${randomBytes(9).toString('base64url')}`;
    const key = `${prefix}_${randomBytes(32).toString('base64url')}`;
    const now = this.clock.now();
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(apiKeys)
        .values({ name, role, prefix, secretHash: sha256(key), createdBy: actorId(input.by), createdAt: now })
        .returning();
      if (!row) throw new ApiError('CONFLICT', 'the key could not be stored; try again');
      await this.audit.record(tx, {
        actor: actorOf(input.by),
        kind: 'change',
        action: 'api_key.create',
        target: row.id,
        changes: { role: { before: null, after: role } },
        personal: { name },
      });
      return { id: row.id, name, role, prefix, key };
    });
  }

  async revokeKey(input: { id: string; by: StaffActor }) {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(apiKeys)
        .set({ revokedAt: this.clock.now() })
        .where(and(eq(apiKeys.id, input.id), isNull(apiKeys.revokedAt)))
        .returning();
      if (!row) throw new ApiError('NOT_FOUND', 'key_id: no live API key with this id');
      await this.audit.record(tx, {
        actor: actorOf(input.by),
        kind: 'change',
        action: 'api_key.revoke',
        target: row.id,
        personal: { name: row.name },
      });
      return row;
    });
  }

  listKeys() {
    return this.db
      .select({
        id: apiKeys.id,
        name: apiKeys.name,
        role: apiKeys.role,
        prefix: apiKeys.prefix,
        createdAt: apiKeys.createdAt,
        lastUsedAt: apiKeys.lastUsedAt,
        revokedAt: apiKeys.revokedAt,
      })
      .from(apiKeys)
      .orderBy(desc(apiKeys.createdAt));
  }

  /** Whether OPERATOR_TOKEN is set: the console warns while it is. */
  get legacyKeySet(): boolean {
    return Boolean(this.legacyToken);
  }

  /**
   * The key a presented secret is, if live: a named key by its hash, or OPERATOR_TOKEN as the key
   * "legacy" (admin). Its last use is recorded, at most once a minute.
   */
  async identify(secret: string, compareLegacy: (given: string, legacy: string) => boolean) {
    if (this.legacyToken && !secret.startsWith(KEY_PREFIX) && compareLegacy(secret, this.legacyToken))
      return LEGACY_KEY;
    if (!secret.startsWith(KEY_PREFIX)) return undefined;
    const now = this.clock.now();
    const [row] = await this.db
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.secretHash, sha256(secret)), isNull(apiKeys.revokedAt)));
    if (!row) return undefined;
    if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= LAST_USE_EVERY_MS)
      await this.db
        .update(apiKeys)
        .set({ lastUsedAt: now })
        .where(
          and(
            eq(apiKeys.id, row.id),
            sql`(${apiKeys.lastUsedAt} is null or ${apiKeys.lastUsedAt} < ${new Date(now.getTime() - LAST_USE_EVERY_MS).toISOString()}::timestamptz)`,
          ),
        );
    return { id: row.id, name: row.name, role: row.role } satisfies ApiKeyIdentity;
  }

  /**
   * Staff accounts, for the console's list: with how many passkeys each has, its open invitation and
   * its last sign-in (counts read straight from those tables: one query for the whole list).
   */
  listStaff(ex: Executor = this.db) {
    const now = this.clock.now().toISOString();
    return ex
      .select({
        id: users.id,
        email: users.email,
        name: users.name,
        role: users.staffRole,
        // Qualified by hand: inside a select list drizzle writes a column without its table.
        passkeys: sql<number>`(select count(*)::int from ${passkeys} p where p.user_id = "users"."id")`,
        invitationExpiresAt: sql<string | null>`(select max(e.expires_at) from ${staffEnrolments} e
          where e.user_id = "users"."id" and e.used_at is null and e.expires_at > ${now}::timestamptz)`,
        lastSignInAt: sql<string | null>`(select max(s.created_at) from ${sessions} s where s.user_id = "users"."id")`,
      })
      .from(users)
      .where(sql`${users.staffRole} is not null`)
      .orderBy(users.email);
  }

  /** Accounts' addresses by id, for the audit trail's labels (an export names up to 50,000: in chunks). */
  async emailsOf(userIds: readonly string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    for (const ids of chunks(userIds)) {
      const rows = await this.db.select({ id: users.id, email: users.email }).from(users).where(inArray(users.id, ids));
      for (const r of rows) found.set(r.id, r.email);
    }
    return found;
  }

  /** Keys' names by id ("legacy" included), for the audit trail's labels. */
  async keyNamesOf(keyIds: readonly string[]): Promise<Map<string, string>> {
    const names = new Map<string, string>([[LEGACY_KEY.id, LEGACY_KEY.name]]);
    for (const ids of chunks(keyIds.filter((id) => UUID.test(id)))) {
      const rows = await this.db
        .select({ id: apiKeys.id, name: apiKeys.name })
        .from(apiKeys)
        .where(inArray(apiKeys.id, ids));
      for (const r of rows) names.set(r.id, r.name);
    }
    return names;
  }

  /** The account of an address, if any. */
  async userIdByEmail(email: string): Promise<string | undefined> {
    const [row] = await this.db.select({ id: users.id }).from(users).where(eq(users.email, email.trim().toLowerCase()));
    return row?.id;
  }

  /** The ids of the keys a name or id names ("legacy" included). */
  async keyIdsNamed(nameOrId: string): Promise<string[]> {
    const found = await this.db
      .select({ id: apiKeys.id })
      .from(apiKeys)
      .where(UUID.test(nameOrId) ? eq(apiKeys.id, nameOrId) : eq(apiKeys.name, nameOrId));
    const ids = found.map((r) => r.id);
    return nameOrId === LEGACY_KEY.name ? [...ids, LEGACY_KEY.id] : ids;
  }
}

/**
 * Locks every admin's row, in one order, before any other row of a role change: two changes at once
 * wait for each other instead of deadlocking, and each counts the admins the other left.
 */
function lockAdmins(tx: Executor) {
  return tx.select({ id: users.id }).from(users).where(eq(users.staffRole, 'admin')).orderBy(users.id).for('update');
}

/** The last admin keeps the role (409): nobody would be left to manage staff and keys but the host. */
function keepLastAdmin(
  admins: readonly { id: string }[],
  user: { id: string; email: string; staffRole: StaffRole | null },
  role: StaffRole | null,
) {
  if (user.staffRole === 'admin' && role !== 'admin' && admins.length <= 1)
    throw new ApiError(
      'CONFLICT',
      `role: ${user.email} is the last admin and keeps the role admin; make another staff member admin first`,
    );
}

/** Ids a query names at once: far below PostgreSQL's 65,535 parameters. */
const CHUNK = 1_000;
function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

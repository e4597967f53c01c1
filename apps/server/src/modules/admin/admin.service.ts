import {
  type ApiKeyView,
  AUDIT_EXPORT_MAX,
  type AuditEntryView,
  PERMISSIONS,
  type Permission,
  roleCan,
  type StaffMember,
  type StaffRole,
} from '@portal/contract';
import type { Config } from '../../config.ts';
import type { AfterAnswer } from '../../lib/after-answer.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Mailer } from '../../lib/mailer.ts';
import type { StaffCaller } from '../../plugins/actions.ts';
import type { AuditActorKind, AuditService } from '../audit/audit.service.ts';
import type { Sessions } from '../auth/auth.sessions.ts';
import { staffInvitationMail } from '../staff/staff.mails.ts';
import type { StaffActor, StaffService } from '../staff/staff.service.ts';
import { toCsv } from './admin.csv.ts';

/** The filters of the audit trail as the contract gives them. */
export interface AuditFilterInput {
  actor?: string | undefined;
  customer?: string | undefined;
  audit_action?: string | undefined;
  from?: number | undefined;
  to?: number | undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The personal side row's fields that have columns of their own in the view. */
const OWN_COLUMNS = new Set(['ip', 'userAgent', 'reason', 'changes']);

export const AUDIT_CSV_HEADER = [
  'seq',
  'at',
  'actor_kind',
  'actor_id',
  'actor_label',
  'subject_user_id',
  'subject_email',
  'kind',
  'action',
  'target',
  'fields',
  'changes',
  'ip',
  'user_agent',
  'reason',
  'details',
  'anonymised',
] as const;

/** The staff side's actor for the audit trail. */
export function actorOfCaller(staff: StaffCaller): StaffActor {
  return staff.kind === 'staff' ? { kind: 'staff', userId: staff.userId } : { kind: 'key', keyId: staff.key.id };
}

const epoch = (at: Date | string | null | undefined) => (at ? new Date(at).getTime() : 0);
const text = (value: unknown) => (typeof value === 'string' ? value : '');

/**
 * The back office's answers (issue 34, decision 071): who calls, the staff, the keys and the audit
 * trail. Changes go through StaffService, which records each in its transaction.
 */
export class AdminService {
  constructor(
    private readonly deps: {
      config: Config;
      clock: Clock;
      mailer: Mailer;
      afterAnswer: AfterAnswer;
      staff: StaffService;
      audit: AuditService;
      sessions: Sessions;
    },
  ) {}

  async me(staff: StaffCaller) {
    const { config, sessions } = this.deps;
    const permissions = (Object.keys(PERMISSIONS) as Permission[]).filter((p) => roleCan(staff.role, p));
    const common = {
      role: staff.role,
      permissions,
      legacy_key_set: this.deps.staff.legacyKeySet,
      goodwill_max_minutes: config.STAFF_GOODWILL_MAX_MINUTES,
    };
    if (staff.kind === 'key') return { ...common, user_id: '', name: staff.key.name, email: '', session_expires_at: 0 };
    const session = (await sessions.list(staff.userId)).find((s) => s.id === staff.sessionId);
    return {
      ...common,
      user_id: staff.userId,
      name: staff.email,
      email: staff.email,
      session_expires_at: session ? session.createdAt.getTime() + config.STAFF_SESSION_MAX_S * 1000 : 0,
    };
  }

  async listStaff(): Promise<StaffMember[]> {
    const rows = await this.deps.staff.listStaff();
    return rows.map((r) => ({
      user_id: r.id,
      email: r.email,
      name: r.name,
      role: r.role as StaffRole,
      passkeys: Number(r.passkeys),
      invitation_expires_at: epoch(r.invitationExpiresAt),
      last_sign_in_at: epoch(r.lastSignInAt),
    }));
  }

  /** The invitation, and its link mailed to the person after the answer (a mail failure is logged, not the call's). */
  async invite(staff: StaffCaller, input: { email: string; role: StaffRole }) {
    const added = await this.deps.staff.addStaff({ email: input.email, role: input.role, by: actorOfCaller(staff) });
    const to = input.email.trim().toLowerCase();
    this.deps.afterAnswer.run('staff invitation mail', () =>
      this.deps.mailer.send(
        staffInvitationMail({ to, role: added.role, link: added.link, expiresAt: added.expiresAt }),
      ),
    );
    return {
      user_id: added.userId,
      created: added.created,
      role: added.role,
      link: added.link,
      expires_at: added.expiresAt.getTime(),
    };
  }

  async setRole(staff: StaffCaller, input: { user_id: string; role: StaffRole | null }) {
    await this.deps.staff.setRole({ userId: input.user_id, role: input.role, by: actorOfCaller(staff) });
    return this.listStaff();
  }

  // ---- API keys ----

  async listKeys(): Promise<ApiKeyView[]> {
    return (await this.deps.staff.listKeys()).map(keyView);
  }

  async createKey(staff: StaffCaller, input: { name: string; role: StaffRole }) {
    const made = await this.deps.staff.createKey({ name: input.name, role: input.role, by: actorOfCaller(staff) });
    return {
      key: keyView({ ...made, createdAt: this.deps.clock.now(), lastUsedAt: null, revokedAt: null }),
      secret: made.key,
    };
  }

  async revokeKey(staff: StaffCaller, keyId: string): Promise<ApiKeyView> {
    return keyView(await this.deps.staff.revokeKey({ id: keyId, by: actorOfCaller(staff) }));
  }

  // ---- the audit trail ----

  /** The filter as the audit trail's query takes it; undefined when it can match nothing. */
  private async resolveFilter(input: AuditFilterInput) {
    const { staff } = this.deps;
    const filter: {
      actorIds?: string[];
      actorKind?: AuditActorKind;
      subjectUserId?: string;
      action?: string;
      from?: Date;
      to?: Date;
    } = {};
    const actor = input.actor?.trim();
    if (actor) {
      if (actor === 'stripe' || actor === 'system') filter.actorKind = actor;
      else if (actor.includes('@')) {
        const id = await staff.userIdByEmail(actor);
        if (!id) return undefined;
        filter.actorIds = [id];
      } else {
        const ids = await staff.keyIdsNamed(actor);
        if (ids.length === 0) return undefined;
        filter.actorIds = ids;
      }
    }
    const customer = input.customer?.trim();
    if (customer) {
      const id = UUID.test(customer) ? customer.toLowerCase() : await staff.userIdByEmail(customer);
      if (!id) return undefined;
      filter.subjectUserId = id;
    }
    if (input.audit_action) filter.action = input.audit_action.trim();
    if (input.from !== undefined) filter.from = new Date(input.from);
    if (input.to !== undefined) filter.to = new Date(input.to);
    return filter;
  }

  private async entries(input: AuditFilterInput, page: { beforeSeq?: number | undefined; limit: number }) {
    const filter = await this.resolveFilter(input);
    if (!filter) return [];
    const rows = await this.deps.audit.list({
      ...filter,
      ...(page.beforeSeq ? { beforeSeq: page.beforeSeq } : {}),
      limit: page.limit,
    });
    const userIds = new Set<string>();
    const keyIds = new Set<string>();
    for (const { audit_entries: e } of rows) {
      if (e.subjectUserId) userIds.add(e.subjectUserId);
      if (e.actorKind === 'staff' || e.actorKind === 'customer') userIds.add(e.actorId);
      if (e.actorKind === 'key') keyIds.add(e.actorId);
    }
    const [emails, keyNames] = await Promise.all([
      this.deps.staff.emailsOf([...userIds].filter((id) => UUID.test(id))),
      this.deps.staff.keyNamesOf([...keyIds]),
    ]);
    return rows.map(({ audit_entries: e, audit_personal: p }): AuditEntryView => {
      const data = (p?.data ?? {}) as Record<string, unknown>;
      const anonymised = Boolean(p?.anonymisedAt);
      const label =
        e.actorKind === 'key'
          ? (keyNames.get(e.actorId) ?? e.actorId)
          : e.actorKind === 'staff' || e.actorKind === 'customer'
            ? (emails.get(e.actorId) ?? e.actorId)
            : e.actorKind === 'system'
              ? 'system'
              : 'stripe';
      const changes = anonymised ? {} : ((data.changes ?? {}) as AuditEntryView['changes']);
      return {
        seq: e.seq,
        at: e.at.getTime(),
        actor_kind: e.actorKind,
        actor_id: e.actorId,
        actor_label: label,
        subject_user_id: e.subjectUserId ?? '',
        subject_email: e.subjectUserId ? (emails.get(e.subjectUserId) ?? '') : '',
        kind: e.kind,
        action: e.action,
        target: e.target,
        fields: e.fields,
        changes,
        ip: anonymised ? '' : text(data.ip),
        user_agent: anonymised ? '' : text(data.userAgent),
        reason: anonymised ? '' : text(data.reason),
        details: anonymised ? {} : Object.fromEntries(Object.entries(data).filter(([k]) => !OWN_COLUMNS.has(k))),
        anonymised,
      };
    });
  }

  async listAudit(input: AuditFilterInput & { before_seq?: number | undefined; limit: number }) {
    const found = await this.entries(input, { beforeSeq: input.before_seq, limit: input.limit + 1 });
    const entries = found.slice(0, input.limit);
    const last = entries.at(-1);
    return { entries, next_before_seq: found.length > input.limit && last ? last.seq : 0 };
  }

  /** The CSV of the filtered trail; the export is itself a read entry. */
  async exportAudit(staff: StaffCaller, input: AuditFilterInput, ip: string) {
    const found = await this.entries(input, { limit: AUDIT_EXPORT_MAX + 1 });
    const entries = found.slice(0, AUDIT_EXPORT_MAX);
    const csv = toCsv(AUDIT_CSV_HEADER, entries.map(csvRow));
    await this.deps.audit.recordAlone({
      actor: staff.kind === 'staff' ? { kind: 'staff', id: staff.userId } : { kind: 'key', id: staff.key.id },
      kind: 'read',
      action: 'audit.export',
      personal: { ip, filter: input, rows: entries.length },
    });
    const stamp = this.deps.clock.now().toISOString().replace(/[:.]/g, '-');
    return { filename: `audit-${stamp}.csv`, csv, rows: entries.length, truncated: found.length > AUDIT_EXPORT_MAX };
  }
}

function keyView(row: {
  id: string;
  name: string;
  role: StaffRole;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}): ApiKeyView {
  return {
    key_id: row.id,
    name: row.name,
    role: row.role,
    prefix: row.prefix,
    created_at: row.createdAt.getTime(),
    last_used_at: epoch(row.lastUsedAt),
    revoked_at: epoch(row.revokedAt),
  };
}

const json = (value: unknown) => (value && Object.keys(value).length ? JSON.stringify(value) : '');

function csvRow(e: AuditEntryView): string[] {
  return [
    String(e.seq),
    new Date(e.at).toISOString(),
    e.actor_kind,
    e.actor_id,
    e.actor_label,
    e.subject_user_id,
    e.subject_email,
    e.kind,
    e.action,
    e.target,
    e.fields.join(' '),
    json(e.changes),
    e.ip,
    e.user_agent,
    e.reason,
    json(e.details),
    e.anonymised ? 'true' : 'false',
  ];
}

import { and, asc, eq, gt, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/client.ts';
import { type AUDIT_ACTOR_KINDS, type AUDIT_KINDS, auditEntries, auditPersonal } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import {
  ANONYMISED,
  type AuditProblem,
  auditKey,
  entryHash,
  GENESIS,
  keyId,
  personalMac,
  type StoredEntry,
  verifyEntries,
} from './audit.rules.ts';

export type AuditActorKind = (typeof AUDIT_ACTOR_KINDS)[number];
export type AuditKind = (typeof AUDIT_KINDS)[number];

/** One thing to record. Personal data (emails, names, addresses, reasons, values) goes in `personal`. */
export interface AuditInput {
  /** who acts, and the reason they gave when they gave one (kept in the personal side row) */
  actor: { kind: AuditActorKind; id?: string; reason?: string };
  /** the customer it concerns */
  subjectUserId?: string | null;
  kind: AuditKind;
  action: string;
  target?: string;
  /** the changed fields, before and after (kept in the personal side row; their names in the entry) */
  changes?: Record<string, { before: unknown; after: unknown }>;
  /** where it came from and why: client address, user agent, the reason given */
  personal?: { ip?: string; userAgent?: string; reason?: string; [field: string]: unknown };
}

/** The lock that orders appends: one chain, one writer at a time (held until the transaction ends). */
const CHAIN_LOCK = "hashtextextended('portal:audit-chain', 0)";
/** Entries read per query while verifying. */
const VERIFY_PAGE = 1_000;

export interface AuditKeys {
  /** the key new entries use */
  current: Buffer;
  /** every key entries may name, by id (the current one, and the one before a rotation) */
  all: Map<string, Buffer>;
}

/** AUDIT_HMAC_KEY when set; otherwise keys derived from JWT_SECRET (and JWT_SECRET_PREVIOUS). */
export function auditKeys(config: {
  AUDIT_HMAC_KEY?: string | undefined;
  JWT_SECRET: string;
  JWT_SECRET_PREVIOUS?: string | undefined;
}): AuditKeys {
  const derived = [config.JWT_SECRET, config.JWT_SECRET_PREVIOUS]
    .filter((s): s is string => Boolean(s))
    .map((s) => auditKey(s, true));
  const current = config.AUDIT_HMAC_KEY ? auditKey(config.AUDIT_HMAC_KEY, false) : (derived[0] as Buffer);
  return { current, all: new Map([current, ...derived].map((k) => [keyId(k), k])) };
}

/**
 * The audit trail (issue 34, docs/decisions/069): `record` appends an entry in the caller's
 * transaction (so a rolled-back action leaves none), `verify` walks the chain, `anonymise…` replace
 * side rows with the marker. There is no other write path: no update, no delete.
 */
export class AuditService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly keys: AuditKeys,
  ) {}

  /** Appends one entry in `tx`: call it in the transaction that records the outcome. Answers its seq. */
  async record(tx: Executor, input: AuditInput): Promise<number> {
    await tx.execute(sql.raw(`select pg_advisory_xact_lock(${CHAIN_LOCK})`));
    const [last] = await tx
      .select({ seq: auditEntries.seq, hash: auditEntries.hash })
      .from(auditEntries)
      .orderBy(sql`${auditEntries.seq} desc`)
      .limit(1);
    const seq = (last?.seq ?? 0) + 1;
    const data: Record<string, unknown> = {
      ...(input.actor.reason ? { reason: input.actor.reason } : {}),
      ...(input.personal ?? {}),
      ...(input.changes ? { changes: input.changes } : {}),
    };
    const entry = {
      seq,
      at: this.clock.now().getTime(),
      actorKind: input.actor.kind,
      actorId: input.actor.id ?? '',
      subjectUserId: input.subjectUserId ?? null,
      kind: input.kind,
      action: input.action,
      target: input.target ?? '',
      fields: Object.keys(input.changes ?? {}).sort(),
      personalMac: personalMac(this.keys.current, seq, data),
      macKeyId: keyId(this.keys.current),
    };
    const hash = entryHash(last?.hash ?? GENESIS, entry);
    await tx.insert(auditEntries).values({ ...entry, at: new Date(entry.at), hash });
    await tx.insert(auditPersonal).values({ seq, data });
    return seq;
  }

  /** Records in a transaction of its own (an entry that is the whole action, e.g. a refused call). */
  recordAlone(input: AuditInput): Promise<number> {
    return this.db.transaction((tx) => this.record(tx, input));
  }

  /** Walks the whole chain; answers what is wrong (nothing: an empty list) and how many entries it read. */
  async verify(): Promise<{ entries: number; problems: AuditProblem[]; head: string }> {
    let previous = GENESIS;
    let previousSeq = 0;
    let entries = 0;
    const problems: AuditProblem[] = [];
    for (;;) {
      const rows = await this.db
        .select()
        .from(auditEntries)
        .leftJoin(auditPersonal, eq(auditPersonal.seq, auditEntries.seq))
        .where(gt(auditEntries.seq, previousSeq))
        .orderBy(asc(auditEntries.seq))
        .limit(VERIFY_PAGE);
      if (rows.length === 0) break;
      const stored: StoredEntry[] = rows.map(({ audit_entries: e, audit_personal: p }) => ({
        ...e,
        at: e.at.getTime(),
        personal: p ? { data: p.data, anonymised: p.anonymisedAt !== null } : undefined,
      }));
      const page = verifyEntries(stored, this.keys.all, previous, previousSeq);
      problems.push(...page.problems);
      previous = page.last;
      previousSeq = page.lastSeq;
      entries += rows.length;
    }
    return { entries, problems, head: previous };
  }

  /**
   * Replaces the personal side rows of the entries about a customer (or by them) with the marker:
   * on account deletion. Recorded as an entry of its own. Answers how many were anonymised.
   */
  async anonymiseUser(tx: Executor, userId: string, reason: 'account deleted' | 'retention'): Promise<number> {
    const seqs = tx
      .select({ seq: auditEntries.seq })
      .from(auditEntries)
      .where(or(eq(auditEntries.subjectUserId, userId), eq(auditEntries.actorId, userId)));
    const done = await tx
      .update(auditPersonal)
      .set({ data: { ...ANONYMISED }, anonymisedAt: this.clock.now() })
      .where(and(inArray(auditPersonal.seq, seqs), isNull(auditPersonal.anonymisedAt)))
      .returning({ seq: auditPersonal.seq });
    await this.record(tx, {
      actor: { kind: 'system' },
      subjectUserId: userId,
      kind: 'change',
      action: 'audit.anonymise',
      personal: { reason, entries: done.length },
    });
    return done.length;
  }

  /** Anonymises every side row of entries older than `before` (the retention job). Answers how many. */
  async anonymiseBefore(tx: Executor, before: Date): Promise<number> {
    const result = await tx.execute(sql`
      update ${auditPersonal} p set data = ${JSON.stringify(ANONYMISED)}::jsonb, anonymised_at = ${this.clock.now().toISOString()}::timestamptz
      from ${auditEntries} e
      where e.seq = p.seq and e.at < ${before.toISOString()}::timestamptz and p.anonymised_at is null
      returning p.seq`);
    return rowsOf(result).length;
  }

  /**
   * Entries, newest first, filtered; with their personal side rows. `actorIds` and `subjectUserId`
   * match exactly; an `action` ending in "." is a prefix (e.g. "staff."); `from` is inclusive and
   * `to` exclusive.
   */
  async list(filter: {
    actorId?: string;
    /** any of these actors (an empty list matches nothing) */
    actorIds?: readonly string[];
    actorKind?: AuditActorKind;
    subjectUserId?: string;
    action?: string;
    from?: Date;
    to?: Date;
    beforeSeq?: number;
    limit: number;
  }) {
    const action = filter.action;
    const where = and(
      filter.actorId ? eq(auditEntries.actorId, filter.actorId) : undefined,
      filter.actorIds
        ? filter.actorIds.length
          ? inArray(auditEntries.actorId, [...filter.actorIds])
          : sql`false`
        : undefined,
      filter.actorKind ? eq(auditEntries.actorKind, filter.actorKind) : undefined,
      filter.subjectUserId ? eq(auditEntries.subjectUserId, filter.subjectUserId) : undefined,
      action
        ? action.endsWith('.')
          ? sql`starts_with(${auditEntries.action}, ${action})`
          : eq(auditEntries.action, action)
        : undefined,
      filter.from ? sql`${auditEntries.at} >= ${filter.from.toISOString()}::timestamptz` : undefined,
      filter.to ? lt(auditEntries.at, filter.to) : undefined,
      filter.beforeSeq ? lt(auditEntries.seq, filter.beforeSeq) : undefined,
    );
    return this.db
      .select()
      .from(auditEntries)
      .leftJoin(auditPersonal, eq(auditPersonal.seq, auditEntries.seq))
      .where(where)
      .orderBy(sql`${auditEntries.seq} desc`)
      .limit(filter.limit);
  }
}

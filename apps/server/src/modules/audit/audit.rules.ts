import { createHash, createHmac, hkdfSync } from 'node:crypto';

/**
 * The audit trail's chain (docs/decisions/069), as pure functions: what an entry's hash covers, the
 * HMAC of its personal side row, and what verifying a stretch of the trail finds.
 */

/** The side row of an anonymised entry: what replaces its personal data. */
export const ANONYMISED = Object.freeze({ anonymised: true });
/** The hash before the first entry. */
export const GENESIS = '0'.repeat(64);

/** JSON with object keys sorted at every depth: the same data always gives the same text. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** The fields of an entry the chain covers (everything but its own hash). */
export interface ChainedEntry {
  seq: number;
  /** epoch ms */
  at: number;
  actorKind: string;
  actorId: string;
  subjectUserId: string | null;
  kind: string;
  action: string;
  target: string;
  fields: readonly string[];
  personalMac: string;
  macKeyId: string;
}

/** SHA-256 (hex) of the previous hash and the entry's fields. */
export function entryHash(previous: string, entry: ChainedEntry): string {
  return createHash('sha256')
    .update(previous)
    .update('\n')
    .update(
      canonicalJson({
        seq: entry.seq,
        at: entry.at,
        actorKind: entry.actorKind,
        actorId: entry.actorId,
        subjectUserId: entry.subjectUserId,
        kind: entry.kind,
        action: entry.action,
        target: entry.target,
        fields: entry.fields,
        personalMac: entry.personalMac,
        macKeyId: entry.macKeyId,
      }),
    )
    .digest('hex');
}

/** A key for the side rows' HMAC: AUDIT_HMAC_KEY, or one derived from the token secret. */
export function auditKey(secret: string, derived: boolean): Buffer {
  return derived
    ? Buffer.from(hkdfSync('sha256', secret, 'portal-audit', 'audit personal fields v1', 32))
    : Buffer.from(secret, 'utf8');
}

/** Which key: the first 8 hex digits of its SHA-256 (names it without revealing it). */
export function keyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

/** HMAC-SHA256 of a side row's data (canonical JSON), base64url. */
export function personalMac(key: Buffer, seq: number, data: Record<string, unknown>): string {
  return createHmac('sha256', key)
    .update(`${seq}\n${canonicalJson(data)}`)
    .digest('base64url');
}

export interface StoredEntry extends ChainedEntry {
  hash: string;
  /** the side row; undefined when it is missing */
  personal?: { data: Record<string, unknown>; anonymised: boolean } | undefined;
}

/** One thing wrong with the trail, by entry. */
export interface AuditProblem {
  seq: number;
  problem: 'gap' | 'hash' | 'personal' | 'missing-personal' | 'unknown-key';
}

/**
 * Checks entries in seq order, starting after `previous` (the hash of the entry before the first,
 * GENESIS for the start) with seq `previousSeq + 1`: each hash must follow from the one before and
 * the entry's fields; each side row not anonymised must match its HMAC under the key it names.
 */
export function verifyEntries(
  entries: readonly StoredEntry[],
  keys: ReadonlyMap<string, Buffer>,
  previous = GENESIS,
  previousSeq = 0,
): { problems: AuditProblem[]; last: string; lastSeq: number } {
  const problems: AuditProblem[] = [];
  let prev = previous;
  let expectedSeq = previousSeq + 1;
  for (const e of entries) {
    if (e.seq !== expectedSeq) problems.push({ seq: e.seq, problem: 'gap' });
    if (entryHash(prev, e) !== e.hash) problems.push({ seq: e.seq, problem: 'hash' });
    if (!e.personal) problems.push({ seq: e.seq, problem: 'missing-personal' });
    else if (!e.personal.anonymised) {
      const key = keys.get(e.macKeyId);
      if (!key) problems.push({ seq: e.seq, problem: 'unknown-key' });
      else if (personalMac(key, e.seq, e.personal.data) !== e.personalMac)
        problems.push({ seq: e.seq, problem: 'personal' });
    }
    prev = e.hash;
    expectedSeq = e.seq + 1;
  }
  return { problems, last: prev, lastSeq: expectedSeq - 1 };
}

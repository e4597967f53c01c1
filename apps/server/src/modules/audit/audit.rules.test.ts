import { describe, expect, it } from 'vitest';
import {
  type AuditProblem,
  auditKey,
  canonicalJson,
  entryHash,
  GENESIS,
  keyId,
  personalMac,
  type StoredEntry,
  verifyEntries,
} from './audit.rules.ts';

describe('canonicalJson', () => {
  it.each([
    [
      'keys sorted at every depth',
      { b: 1, a: { d: [2, { z: 1, y: 0 }], c: null } },
      '{"a":{"c":null,"d":[2,{"y":0,"z":1}]},"b":1}',
    ],
    ['undefined members left out', { a: undefined, b: 'x' }, '{"b":"x"}'],
    ['scalars as JSON', 'é"', '"é\\""'],
    ['null', null, 'null'],
  ])('%s', (_, value, text) => {
    expect(canonicalJson(value)).toBe(text);
  });
});

const key = auditKey('a-secret-of-the-portal-that-is-long-enough', true);
const otherKey = auditKey('x'.repeat(40), false);
const keys = new Map([[keyId(key), key]]);

/** A well-formed trail of n entries, the second about a customer with personal data. */
function trail(n: number): StoredEntry[] {
  const out: StoredEntry[] = [];
  let prev = GENESIS;
  for (let seq = 1; seq <= n; seq++) {
    const data = seq === 2 ? { ip: '203.0.113.9', changes: { email: { before: 'a@x.test', after: 'b@x.test' } } } : {};
    const entry = {
      seq,
      at: 1_790_000_000_000 + seq,
      actorKind: 'staff',
      actorId: 'u-staff',
      subjectUserId: seq === 2 ? 'u-customer' : null,
      kind: 'change',
      action: `action.${seq}`,
      target: '',
      fields: seq === 2 ? ['email'] : [],
      personalMac: personalMac(key, seq, data),
      macKeyId: keyId(key),
    };
    const hash = entryHash(prev, entry);
    out.push({ ...entry, hash, personal: { data, anonymised: false } });
    prev = hash;
  }
  return out;
}

const problems = (entries: StoredEntry[]): AuditProblem[] => verifyEntries(entries, keys).problems;

describe('verifyEntries (decision 069)', () => {
  it.each<[string, (t: StoredEntry[]) => StoredEntry[], AuditProblem[]]>([
    ['an untouched trail', (t) => t, []],
    [
      'an anonymised side row: the chain still holds',
      (t) => t.map((e) => (e.seq === 2 ? { ...e, personal: { data: { anonymised: true }, anonymised: true } } : e)),
      [],
    ],
    [
      "an entry's action edited",
      (t) => t.map((e) => (e.seq === 2 ? { ...e, action: 'something.else' } : e)),
      [{ seq: 2, problem: 'hash' }],
    ],
    [
      'an entry edited and its hash recomputed: the next entry no longer follows',
      (t) =>
        t.map((e, i) => {
          if (e.seq !== 2) return e;
          const edited = { ...e, target: 'other' };
          return { ...edited, hash: entryHash(t[i - 1]?.hash ?? GENESIS, edited) };
        }),
      [{ seq: 3, problem: 'hash' }],
    ],
    [
      'a personal field edited',
      (t) =>
        t.map((e) =>
          e.seq === 2
            ? { ...e, personal: { data: { ...e.personal?.data, ip: '198.51.100.1' }, anonymised: false } }
            : e,
        ),
      [{ seq: 2, problem: 'personal' }],
    ],
    [
      'an entry removed',
      (t) => t.filter((e) => e.seq !== 2),
      [
        { seq: 3, problem: 'gap' },
        { seq: 3, problem: 'hash' },
      ],
    ],
    [
      'a side row missing',
      (t) => t.map((e) => (e.seq === 1 ? { ...e, personal: undefined } : e)),
      [{ seq: 1, problem: 'missing-personal' }],
    ],
    [
      'a key the verifier does not hold',
      (t) => t.map((e) => (e.seq === 3 ? { ...e, macKeyId: keyId(otherKey) } : e)),
      [
        { seq: 3, problem: 'hash' },
        { seq: 3, problem: 'unknown-key' },
      ],
    ],
  ])('%s', (_, change, expected) => {
    expect(problems(change(trail(4)))).toEqual(expected);
  });

  it('continues from a page before: the previous hash and seq carry over', () => {
    const t = trail(4);
    const first = verifyEntries(t.slice(0, 2), keys);
    expect(verifyEntries(t.slice(2), keys, first.last, first.lastSeq).problems).toEqual([]);
    expect(verifyEntries(t.slice(2), keys).problems.length).toBeGreaterThan(0);
  });
});

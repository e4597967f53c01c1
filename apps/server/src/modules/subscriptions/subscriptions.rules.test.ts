import { ONE_DAY_MS } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import { entitlementOf, type TierRow } from './subscriptions.rules.ts';

const now = new Date('2026-06-01T00:00:00Z');
const at = (days: number) => new Date(now.getTime() + days * ONE_DAY_MS);

const row = (patch: Partial<TierRow> & { name?: string }): TierRow & { name: string } => ({
  name: 'row',
  status: 'active',
  tier: 'Standard Subscription',
  overrideKind: 99,
  startsAt: at(-10),
  endsAt: at(20),
  flexSlots: 1,
  ...patch,
});

describe('entitlementOf (docs/decisions/019)', () => {
  it.each([
    ['no rows', [], 'Lite', undefined, 0],
    ['a paid Standard plan', [row({ name: 'std' })], 'Standard', 'std', 1],
    ['a paid Pro plan', [row({ name: 'pro', tier: 'Pro Subscription', flexSlots: 3 })], 'Pro', 'pro', 3],
    ['a plan whose period ended', [row({ endsAt: at(-1) })], 'Lite', undefined, 0],
    ['a plan whose payment failed', [row({ status: 'inactive' })], 'Lite', undefined, 0],
    ['a cancelled plan', [row({ status: 'cancelled' })], 'Lite', undefined, 0],
    ['a plan cancelled at period end, still in its period', [row({ name: 'std' })], 'Standard', 'std', 1],
    [
      'a grant of Standard wins over a paid Pro plan',
      [
        row({ name: 'pro', tier: 'Pro Subscription', flexSlots: 3 }),
        row({ name: 'grant', overrideKind: 1, flexSlots: 1 }),
      ],
      'Standard',
      'grant',
      1,
    ],
    [
      'an ended grant leaves the paid plan',
      [row({ name: 'pro', tier: 'Pro Subscription', flexSlots: 3 }), row({ overrideKind: 0, endsAt: at(-2) })],
      'Pro',
      'pro',
      3,
    ],
    ['an open-ended grant', [row({ name: 'g', overrideKind: 2, endsAt: null, flexSlots: 2 })], 'Standard', 'g', 2],
    [
      'of two Pro rows the latest started decides',
      [
        row({ name: 'old', tier: 'Pro Subscription', startsAt: at(-30) }),
        row({ name: 'new', tier: 'Pro Subscription', startsAt: at(-3) }),
      ],
      'Pro',
      'new',
      1,
    ],
    [
      'Pro among active rows decides over a later Standard',
      [
        row({ name: 'pro', tier: 'Pro Subscription', startsAt: at(-30), flexSlots: 3 }),
        row({ name: 'std', startsAt: at(-1) }),
      ],
      'Pro',
      'pro',
      3,
    ],
  ] as const)('%s -> %s', (_name, rows, tier, deciding, slots) => {
    const e = entitlementOf(rows as readonly (TierRow & { name: string })[], now);
    expect(e.tier).toBe(tier);
    expect(e.deciding?.name).toBe(deciding);
    expect(e.slots).toBe(slots);
  });
});

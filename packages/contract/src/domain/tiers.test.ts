import { describe, expect, it } from 'vitest';
import { canPurchaseTime, deriveTier, tierIndex } from './tiers.ts';

const sub = (status: string, subscription_tier?: string) => ({ status, subscription_tier });

describe('deriveTier', () => {
  it.each([
    ['undefined', undefined, 'Lite'],
    ['null', null, 'Lite'],
    ['an Error', new Error('Failed to fetch active subscription'), 'Lite'],
    [
      'an error response',
      { error: { Success: false }, user_subscriptions: [sub('active', 'Pro Subscription')] },
      'Lite',
    ],
    ['no subscriptions', { user_subscriptions: [] }, 'Lite'],
    ['a missing list', {}, 'Lite'],
    ['active Pro', { user_subscriptions: [sub('active', 'Pro Subscription')] }, 'Pro'],
    ['active Standard', { user_subscriptions: [sub('active', 'Standard Subscription')] }, 'Standard'],
    ['any other active tier', { user_subscriptions: [sub('active', 'Something Else')] }, 'Standard'],
    ['active without a tier', { user_subscriptions: [sub('active')] }, 'Standard'],
    [
      'Pro among several active',
      { user_subscriptions: [sub('active', 'Standard Subscription'), sub('active', 'Pro Subscription')] },
      'Pro',
    ],
    ['cancelled Pro only', { user_subscriptions: [sub('cancelled', 'Pro Subscription')] }, 'Lite'],
    [
      'expired and pending only',
      { user_subscriptions: [sub('expired', 'Standard Subscription'), sub('pending_assignment', 'Pro Subscription')] },
      'Lite',
    ],
    [
      'expired Pro, active Standard',
      { user_subscriptions: [sub('expired', 'Pro Subscription'), sub('active', 'Standard Subscription')] },
      'Standard',
    ],
    [
      'a successful response',
      { error: { Success: true }, user_subscriptions: [sub('active', 'Pro Subscription')] },
      'Pro',
    ],
  ] as const)('%s gives %s', (_name, data, tier) => {
    expect(deriveTier(data)).toBe(tier);
  });
});

describe('tierIndex', () => {
  it.each([
    ['Lite', 0],
    ['Standard', 1],
    ['Pro', 2],
    ['Lite Subscription', 0],
    ['Standard Subscription', 1],
    ['Pro Subscription', 2],
    ['lite subscription', 0],
    ['PRO', 2],
    ['Enterprise', -1],
    ['', -1],
    [undefined, -1],
  ] as const)('%s is %i', (tier, index) => {
    expect(tierIndex(tier)).toBe(index);
  });
});

describe('canPurchaseTime', () => {
  it.each([
    ['Lite', true],
    ['Standard', true],
    ['Pro', false],
  ] as const)('%s: %s', (tier, can) => {
    expect(canPurchaseTime(tier)).toBe(can);
  });
});

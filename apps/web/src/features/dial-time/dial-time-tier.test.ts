import { describe, expect, it } from 'vitest';
import { dialTimeTier } from './dial-time-tier';

describe('dialTimeTier', () => {
  it.each([
    ['Pro Subscription', 'Pro'],
    ['pro', 'Pro'],
    ['Standard Subscription', 'Standard'],
    ['Lite Subscription', 'Lite'],
    ['', 'Lite'],
    ['Gold', 'Lite'],
  ])('%j -> %s', (subscription_type, tier) => {
    expect(dialTimeTier({ subscription_type })).toBe(tier);
  });

  it('no data gives Lite', () => {
    expect(dialTimeTier(undefined)).toBe('Lite');
  });
});

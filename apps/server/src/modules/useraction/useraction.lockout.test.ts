import { ONE_DAY_MS, ONE_DAY_S } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import { accountDelayS, accountKey, type FailureState, type LockoutPolicy, lockedNow } from './useraction.lockout.ts';

const policy: LockoutPolicy = {
  LOGIN_MAX_FAILURES: 5,
  LOCKOUT_S: 900,
  LOGIN_ACCOUNT_FREE_FAILURES: 10,
  LOGIN_ACCOUNT_DELAY_S: 2,
  LOGIN_ACCOUNT_MAX_LOCK_S: 900,
  LOGIN_FAILURE_MEMORY_S: ONE_DAY_S,
  LOGIN_KNOWN_ADDRESS_S: 30 * ONE_DAY_S,
};

describe('accountDelayS', () => {
  it.each([
    [0, 0],
    [10, 0],
    [11, 2],
    [12, 4],
    [13, 8],
    [18, 256],
    [19, 512],
    [20, 900],
    [1_000_000, 900],
  ])('after %i failures: %i s', (failures, delay) => {
    expect(accountDelayS(failures, policy)).toBe(delay);
  });
});

describe('lockedNow', () => {
  const now = new Date('2026-05-01T12:00:00Z');
  const later = new Date(now.getTime() + 60_000);
  const earlier = new Date(now.getTime() - 60_000);
  const row = (over: Partial<NonNullable<FailureState['address']>>) => ({
    accountKey: 'k',
    source: 'x',
    failures: 0,
    lockedUntil: null,
    lastSuccessAt: null,
    updatedAt: now,
    ...over,
  });
  it.each<[string, FailureState, boolean]>([
    ['nothing recorded', {}, false],
    ['the address locked', { address: row({ lockedUntil: later }) }, true],
    ['the address lock over', { address: row({ lockedUntil: earlier }) }, false],
    ['the account delayed', { account: row({ source: '*', lockedUntil: later }) }, true],
    [
      'the account delayed, the address signed in a day ago',
      {
        account: row({ source: '*', lockedUntil: later }),
        address: row({ lastSuccessAt: new Date(now.getTime() - ONE_DAY_MS) }),
      },
      false,
    ],
    [
      'the account delayed, the address signed in 31 days ago',
      {
        account: row({ source: '*', lockedUntil: later }),
        address: row({ lastSuccessAt: new Date(now.getTime() - 31 * ONE_DAY_MS) }),
      },
      true,
    ],
    ['a known address locked on its own', { address: row({ lockedUntil: later, lastSuccessAt: earlier }) }, true],
  ])('%s -> %s', (_label, state, locked) => {
    expect(lockedNow(state, now, policy)).toBe(locked);
  });
});

describe('accountKey', () => {
  it('is the same for any spelling of one address and differs between addresses', () => {
    expect(accountKey(' Ada@Example.com ')).toBe(accountKey('ada@example.com'));
    expect(accountKey('ada@example.com')).not.toBe(accountKey('bob@example.com'));
    expect(accountKey('ada@example.com')).not.toContain('ada');
  });
});

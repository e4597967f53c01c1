import { describe, expect, it } from 'vitest';
import {
  awaitsStaff,
  nextSupportStatus,
  SUPPORT_STATUSES,
  type SupportEvent,
  type SupportStatus,
} from './support-status.ts';

describe('nextSupportStatus (issue 35: who wrote last decides)', () => {
  const table: [SupportStatus, SupportEvent, SupportStatus | 'refused'][] = [
    // a customer's reply makes it ours again, a closed request included
    ['new', { kind: 'customer_reply' }, 'open'],
    ['open', { kind: 'customer_reply' }, 'open'],
    ['waiting', { kind: 'customer_reply' }, 'open'],
    ['closed', { kind: 'customer_reply' }, 'open'],
    // a staff reply waits on the customer
    ['new', { kind: 'staff_reply' }, 'waiting'],
    ['open', { kind: 'staff_reply' }, 'waiting'],
    ['waiting', { kind: 'staff_reply' }, 'waiting'],
    ['closed', { kind: 'staff_reply' }, 'waiting'],
    // by hand: open, waiting and closed from anywhere
    ['new', { kind: 'set', to: 'open' }, 'open'],
    ['new', { kind: 'set', to: 'closed' }, 'closed'],
    ['open', { kind: 'set', to: 'waiting' }, 'waiting'],
    ['waiting', { kind: 'set', to: 'closed' }, 'closed'],
    ['closed', { kind: 'set', to: 'open' }, 'open'],
    ['closed', { kind: 'set', to: 'closed' }, 'closed'],
    // nobody makes a request unread again
    ['open', { kind: 'set', to: 'new' }, 'refused'],
    ['closed', { kind: 'set', to: 'new' }, 'refused'],
    ['waiting', { kind: 'set', to: 'new' }, 'refused'],
    // ... though setting new on a new one changes nothing and is no error
    ['new', { kind: 'set', to: 'new' }, 'new'],
  ];
  it.each(table)('%s + %o -> %s', (from, event, expected) => {
    const next = nextSupportStatus(from, event);
    if (expected === 'refused') {
      expect(next).toEqual({ ok: false, reason: 'Status must be one of open, waiting, closed' });
    } else {
      expect(next).toEqual({ ok: true, status: expected });
    }
  });

  it('covers every status as a starting point', () => {
    expect(new Set(table.map(([from]) => from))).toEqual(new Set(SUPPORT_STATUSES));
  });
});

describe('awaitsStaff', () => {
  it.each([
    ['new', true],
    ['open', true],
    ['waiting', false],
    ['closed', false],
  ] as const)('%s -> %s', (status, expected) => {
    expect(awaitsStaff(status)).toBe(expected);
  });
});

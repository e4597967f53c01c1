import { describe, expect, it } from 'vitest';
import { nextMessageAt } from './support.service.ts';

describe('nextMessageAt: a thread keeps the order its messages were written in', () => {
  const at = (ms: number) => new Date(ms);
  it.each([
    ['now is after the last message', 5_000, 1_000, 5_000],
    ['now is the last message (the same millisecond)', 1_000, 1_000, 1_001],
    ['the clock is behind the last message', 900, 1_000, 1_001],
  ])('%s', (_label, now, last, expected) => {
    expect(nextMessageAt(at(now), { lastMessageAt: at(last) }).getTime()).toBe(expected);
  });
});

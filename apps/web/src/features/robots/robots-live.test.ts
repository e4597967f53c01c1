import type { StreamMessage } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import { type LiveEffect, liveEventEffects, liveReconnectDelayMs } from './robots-live';

describe('liveEventEffects', () => {
  it.each<[string, StreamMessage, LiveEffect]>([
    ['the stream opening', { kind: 'ready' }, { invalidate: [] }],
    ['a resync', { kind: 'resync' }, { invalidate: ['licenses', 'robots', 'shares'] }],
    [
      'availability',
      { kind: 'robot.availability', robot_id: 'r1', available: true },
      { available: { robotId: 'r1', available: true }, invalidate: ['robots'] },
    ],
    ['availability without its state', { kind: 'robot.availability', robot_id: 'r1' }, { invalidate: ['robots'] }],
    ['a rename', { kind: 'robot.updated', robot_id: 'r1' }, { invalidate: ['robots'] }],
    ['a registration', { kind: 'robot.registered', robot_id: 'r1' }, { invalidate: ['licenses', 'robots'] }],
    ['an unregistration', { kind: 'robot.unregistered', robot_id: 'r1' }, { invalidate: ['licenses', 'robots'] }],
    ['a new license', { kind: 'license.granted', license_id: 'l1' }, { invalidate: ['licenses', 'robots'] }],
    ['a pairing', { kind: 'license.paired', license_id: 'l1' }, { invalidate: ['licenses', 'robots'] }],
    ['an unpairing', { kind: 'license.unpaired', license_id: 'l1' }, { invalidate: ['licenses', 'robots'] }],
    ['a share starting', { kind: 'share.started', license_id: 'l1' }, { invalidate: ['licenses', 'robots', 'shares'] }],
    ['a share ending', { kind: 'share.ended', license_id: 'l1' }, { invalidate: ['licenses', 'robots', 'shares'] }],
  ])('%s', (_name, message, effect) => {
    expect(liveEventEffects(message)).toEqual(effect);
  });
});

describe('liveReconnectDelayMs', () => {
  it.each([
    [0, 0, 1_000],
    [1, 0, 2_000],
    [2, 0, 4_000],
    [4, 0, 16_000],
    [5, 0, 30_000],
    [12, 0, 30_000],
    [0, 1, 800],
    [3, 0.5, 7_200],
    [9, 1, 24_000],
    [-1, 0, 1_000],
  ])('attempt %i with random %d waits %i ms', (attempt, random, ms) => {
    expect(liveReconnectDelayMs(attempt, () => random)).toBe(ms);
  });
});

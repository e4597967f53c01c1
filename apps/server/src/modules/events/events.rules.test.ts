import type { LiveEvent } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import {
  decodeNotification,
  decodeSessionEnds,
  encodeNotifications,
  encodeSessionEnds,
  NOTIFY_MAX_BYTES,
  type Notification,
  routeEvent,
  SSE_HEARTBEAT,
  sseFrame,
} from './events.rules.ts';

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const availability: LiveEvent = { kind: 'robot.availability', robot_id: uuid(9999), available: true };

describe('encodeNotifications', () => {
  it.each([
    ['no users: nothing to send', 0, 0],
    ['one user', 1, 1],
    ['a license shared with 150', 150, 1],
    ['with 250', 250, 2],
    ['with 1,000', 1_000, 5],
  ])('%s (%i users) takes %i payloads, each under the limit, every user once', (_name, users, payloads) => {
    const ids = Array.from({ length: users }, (_, i) => uuid(i));
    const out = encodeNotifications(availability, [...ids, ...ids.slice(0, 3)]);
    expect(out).toHaveLength(payloads);
    for (const p of out) expect(Buffer.byteLength(p)).toBeLessThanOrEqual(NOTIFY_MAX_BYTES);
    const decoded = out.map((p) => decodeNotification(p) as Notification);
    expect(decoded.every((d) => JSON.stringify(d.event) === JSON.stringify(availability))).toBe(true);
    expect(decoded.flatMap((d) => d.users)).toEqual(ids);
  });

  it('fills a payload up to the byte limit, not beyond', () => {
    const ids = Array.from({ length: 40 }, (_, i) => uuid(i));
    for (const max of [200, 333, 1_000]) {
      const out = encodeNotifications(availability, ids, max);
      for (const p of out) expect(Buffer.byteLength(p)).toBeLessThanOrEqual(max);
      // one more id would not have fitted in any payload but the last
      for (const p of out.slice(0, -1)) expect(Buffer.byteLength(p) + uuid(0).length + 3).toBeGreaterThan(max);
    }
  });
});

describe('decodeNotification', () => {
  it.each([
    ['not JSON', 'robot.availability'],
    ['an unknown kind', JSON.stringify({ k: 'robot.exploded', u: [uuid(1)] })],
    ['no users', JSON.stringify({ k: 'robot.updated', r: uuid(1) })],
    ['users not strings', JSON.stringify({ k: 'robot.updated', u: [1, 2] })],
    ['null', 'null'],
  ])('ignores %s', (_name, payload) => {
    expect(decodeNotification(payload)).toBeUndefined();
  });

  it.each<[string, LiveEvent]>([
    ['availability', availability],
    ['a pairing', { kind: 'license.paired', license_id: uuid(1), robot_id: uuid(2) }],
    ['a share ending without a robot', { kind: 'share.ended', license_id: uuid(3) }],
    ['availability off', { kind: 'robot.availability', robot_id: uuid(4), available: false }],
  ])('reads back %s as it was sent', (_name, event) => {
    const [payload] = encodeNotifications(event, [uuid(7)]);
    expect(decodeNotification(payload as string)).toEqual({ event, users: [uuid(7)] });
  });
});

describe('session ends', () => {
  it.each([
    ['no session: nothing to send', 0, 0],
    ['one session', 1, 1],
    ['a user signed in 150 times', 150, 1],
    ['250', 250, 2],
    ['1,000', 1_000, 5],
  ])('%s (%i) takes %i payloads, each under the limit, every session once', (_name, count, payloads) => {
    const ids = Array.from({ length: count }, (_, i) => uuid(i));
    const out = encodeSessionEnds([...ids, ...ids.slice(0, 3)]);
    expect(out).toHaveLength(payloads);
    for (const p of out) expect(Buffer.byteLength(p)).toBeLessThanOrEqual(NOTIFY_MAX_BYTES);
    expect(out.flatMap((p) => decodeSessionEnds(p) ?? [])).toEqual(ids);
  });

  it.each([
    ['not JSON', 'session'],
    ['null', 'null'],
    ['no list', JSON.stringify({ s: uuid(1) })],
    ['ids not strings', JSON.stringify({ s: [1] })],
    ["an event's payload", encodeNotifications(availability, [uuid(1)])[0] as string],
  ])('reads nothing from %s', (_name, payload) => {
    expect(decodeSessionEnds(payload)).toBeUndefined();
  });
});

describe('routeEvent', () => {
  const stream = (userId: string, n: number) => ({ userId, n });
  const a1 = stream('a', 1);
  const a2 = stream('a', 2);
  const b1 = stream('b', 1);
  const held = new Map([
    ['a', new Set([a1, a2])],
    ['b', new Set([b1])],
  ]);
  it.each([
    ['one user with two tabs', ['a'], [a1, a2]],
    ['both users', ['b', 'a'], [b1, a1, a2]],
    ['a user named twice gets it once per stream', ['b', 'b'], [b1]],
    ['a user with no stream here', ['c'], []],
    ['nobody', [], []],
  ])('%s', (_name, users, expected) => {
    expect(routeEvent({ event: availability, users }, held)).toEqual(expected);
  });
});

describe('sseFrame', () => {
  it.each([
    [{ kind: 'ready' } as const, 'data: {"kind":"ready"}\n\n'],
    [
      { kind: 'license.unpaired', license_id: 'l-1' } as const,
      'data: {"kind":"license.unpaired","license_id":"l-1"}\n\n',
    ],
  ])('frames %j as one data line', (message, frame) => {
    expect(sseFrame(message)).toBe(frame);
  });

  it('heartbeats are comments', () => {
    expect(SSE_HEARTBEAT.startsWith(':')).toBe(true);
    expect(SSE_HEARTBEAT.endsWith('\n\n')).toBe(true);
  });
});

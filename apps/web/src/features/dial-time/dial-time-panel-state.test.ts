import { describe, expect, it } from 'vitest';
import { dialPanelState } from './dial-time-panel-state';

const time = (durable: [number, number], perishable: [number, number], infinite = false) => ({
  total_durable_time: durable[0],
  used_durable_time: durable[1],
  total_perishable_time: perishable[0],
  used_perishable_time: perishable[1],
  has_infinite_time: infinite,
});

describe('dialPanelState', () => {
  const t = time([100, 0], [100, 50]);
  it.each([
    ['loading', { loading: true, tier: 'Lite' as const }, 'loading', undefined],
    [
      'no session',
      { loading: false, unauthenticated: true, tier: 'Lite' as const },
      'error',
      'Authentication required',
    ],
    [
      'failed load',
      { loading: false, error: new Error('x'), tier: 'Lite' as const },
      'error',
      'Failed to load dial time information',
    ],
    ['no data', { loading: false, tier: 'Standard' as const }, 'error', 'Failed to load dial time information'],
    ['Pro', { loading: false, tier: 'Pro' as const, userTime: t }, 'infinite', undefined],
    [
      'infinite flag',
      { loading: false, tier: 'Standard' as const, userTime: time([0, 0], [0, 0], true) },
      'infinite',
      undefined,
    ],
    ['Standard', { loading: false, tier: 'Standard' as const, userTime: t }, 'normal', undefined],
    ['Lite', { loading: false, tier: 'Lite' as const, userTime: t }, 'normal', undefined],
  ])('%s', (_name, input, kind, message) => {
    const state = dialPanelState(input);
    expect(state.kind).toBe(kind);
    if (state.kind === 'error') expect(state.message).toBe(message);
  });

  it.each([
    ['Lite', true],
    ['Standard', false],
  ] as const)('%s shows the upgrade box: %s', (tier, show) => {
    const state = dialPanelState({ loading: false, tier, userTime: t });
    expect(state.kind === 'normal' && state.showUpgrade).toBe(show);
  });
});

import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useDelayedFlag } from './use-delayed-flag';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('useDelayedFlag', () => {
  it('turns on only once the state has lasted the whole delay', () => {
    const { result } = renderHook(() => useDelayedFlag(true, 700));
    act(() => vi.advanceTimersByTime(699));
    expect(result.current).toBe(false);
    act(() => vi.advanceTimersByTime(1));
    expect(result.current).toBe(true);
  });

  it('turns off at once when the state ends, and starts counting again when it comes back', () => {
    const { result, rerender } = renderHook(({ active }) => useDelayedFlag(active, 700), {
      initialProps: { active: true },
    });
    act(() => vi.advanceTimersByTime(700));
    rerender({ active: false });
    expect(result.current).toBe(false);
    rerender({ active: true });
    act(() => vi.advanceTimersByTime(699));
    expect(result.current).toBe(false);
  });

  it('never turns on for a state shorter than the delay', () => {
    const { result, rerender } = renderHook(({ active }) => useDelayedFlag(active, 700), {
      initialProps: { active: true },
    });
    act(() => vi.advanceTimersByTime(500));
    rerender({ active: false });
    act(() => vi.advanceTimersByTime(5_000));
    expect(result.current).toBe(false);
  });
});

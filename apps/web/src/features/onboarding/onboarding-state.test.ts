import { describe, expect, it } from 'vitest';
import { ONBOARDING_ACTIVITY_LOCK_MS } from '@/config/constants';
import {
  type ActiveMarker,
  greetingName,
  parseActiveMarker,
  parseStep,
  progressFraction,
  serializeActiveMarker,
  shouldOpenOnboarding,
} from './onboarding-state';

describe('parseStep', () => {
  it.each([
    { raw: null, expected: 0 },
    { raw: '', expected: 0 },
    { raw: '0', expected: 0 },
    { raw: '3', expected: 3 },
    { raw: '5', expected: 5 },
    { raw: '6', expected: 5 },
    { raw: '99', expected: 5 },
    { raw: '-1', expected: 0 },
    { raw: '2.5', expected: 0 },
    { raw: 'two', expected: 0 },
  ])('$raw -> $expected', ({ raw, expected }) => {
    expect(parseStep(raw, 6)).toBe(expected);
  });
});

describe('parseActiveMarker', () => {
  it.each([
    { raw: null, expected: null },
    { raw: '', expected: null },
    { raw: 'not json', expected: null },
    { raw: '123', expected: null },
    { raw: 'null', expected: null },
    { raw: '{"tabId":1,"at":2}', expected: null },
    { raw: '{"tabId":"a"}', expected: null },
    { raw: '{"tabId":"a","at":5}', expected: { tabId: 'a', at: 5 } },
  ])('$raw', ({ raw, expected }) => {
    expect(parseActiveMarker(raw)).toEqual(expected);
  });

  it('round-trips', () => {
    const marker = { tabId: 'tab-1', at: 1_700_000_000_000 };
    expect(parseActiveMarker(serializeActiveMarker(marker))).toEqual(marker);
  });
});

describe('shouldOpenOnboarding', () => {
  const now = 10_000_000;
  const other = (ageMs: number): ActiveMarker => ({ tabId: 'other', at: now - ageMs });
  it.each<{ name: string; completed: string | null; marker: ActiveMarker | null; expected: boolean }>([
    { name: 'first visit', completed: null, marker: null, expected: true },
    { name: 'completed', completed: 'true', marker: null, expected: false },
    { name: 'stored but not true', completed: 'false', marker: null, expected: true },
    { name: 'another tab just now', completed: null, marker: other(0), expected: false },
    { name: 'another tab 4 min ago', completed: null, marker: other(4 * 60_000), expected: false },
    {
      name: 'another tab exactly 5 min ago',
      completed: null,
      marker: other(ONBOARDING_ACTIVITY_LOCK_MS),
      expected: true,
    },
    { name: 'another tab 6 min ago', completed: null, marker: other(6 * 60_000), expected: true },
    { name: 'marker in the future', completed: null, marker: other(-60_000), expected: true },
    { name: 'this tab (reload)', completed: null, marker: { tabId: 'me', at: now }, expected: true },
    { name: 'completed wins over own marker', completed: 'true', marker: { tabId: 'me', at: now }, expected: false },
  ])('$name -> $expected', ({ completed, marker, expected }) => {
    expect(shouldOpenOnboarding({ completed, marker, tabId: 'me', now })).toBe(expected);
  });
});

describe('greetingName', () => {
  it.each([
    { name: 'Ada Lovelace', expected: 'Ada Lovelace' },
    { name: '  Ada  ', expected: 'Ada' },
    { name: '', expected: 'there' },
    { name: '   ', expected: 'there' },
    { name: null, expected: 'there' },
    { name: undefined, expected: 'there' },
  ])('$name -> $expected', ({ name, expected }) => {
    expect(greetingName(name)).toBe(expected);
  });
});

describe('progressFraction', () => {
  it.each([
    { step: 0, steps: 6, expected: 1 / 6 },
    { step: 1, steps: 6, expected: 2 / 6 },
    { step: 5, steps: 6, expected: 1 },
    { step: 9, steps: 6, expected: 1 },
    { step: 0, steps: 0, expected: 0 },
  ])('step $step of $steps -> $expected', ({ step, steps, expected }) => {
    expect(progressFraction(step, steps)).toBeCloseTo(expected);
  });
});

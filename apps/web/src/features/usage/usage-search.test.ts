import { describe, expect, it } from 'vitest';
import { usageSearchSchema } from './usage-search';

describe('usageSearchSchema', () => {
  it.each([
    [{}, 30],
    [{ days: 30 }, 30],
    [{ days: 90 }, 90],
    [{ days: 365 }, 365],
    [{ days: '90' }, 90],
    [{ days: 7 }, 30],
    [{ days: 'lots' }, 30],
    [{ days: null }, 30],
  ])('%j -> %i days', (search, days) => {
    expect(usageSearchSchema.read(search)).toEqual({ days });
  });
});

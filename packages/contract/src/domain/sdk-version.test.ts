import { describe, expect, it } from 'vitest';
import type { VersionNumber } from '../assets.ts';
import { compareVersions } from './sdk-version.ts';

const v = (major: number, minor: number, patch: number, revision: number): VersionNumber => ({
  major,
  minor,
  patch,
  revision,
});

describe('compareVersions', () => {
  it.each([
    [v(1, 0, 0, 0), v(1, 0, 0, 0), 0],
    [v(2, 0, 0, 0), v(1, 9, 9, 9), 1],
    [v(1, 2, 0, 0), v(1, 1, 9, 9), 1],
    [v(1, 1, 3, 0), v(1, 1, 2, 9), 1],
    [v(1, 1, 1, 2), v(1, 1, 1, 1), 1],
    [v(1, 1, 1, 1), v(1, 1, 1, 2), -1],
    [v(0, 9, 0, 0), v(1, 0, 0, 0), -1],
    [v(1, 10, 0, 0), v(1, 9, 0, 0), 1],
  ])('%o vs %o -> %i', (a, b, sign) => {
    expect(Math.sign(compareVersions(a, b))).toBe(sign);
  });
});

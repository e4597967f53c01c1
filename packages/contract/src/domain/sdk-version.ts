import type { VersionNumber } from '../assets.ts';

/** SDK versions (spec/001 §2 Downloads): the server offers, and the web app shows, the newest first. */

const PARTS = ['major', 'minor', 'patch', 'revision'] as const;

/** Negative, zero or positive as `a` is older than, equal to or newer than `b`. */
export function compareVersions(a: VersionNumber, b: VersionNumber): number {
  for (const part of PARTS) {
    const d = a[part] - b[part];
    if (d !== 0) return d;
  }
  return 0;
}

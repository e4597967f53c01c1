import type { Artifact, VersionNumber } from '../assets.ts';
import { type PlatformId, platformOfArtifact } from './platform.ts';

/** SDK versions of the Downloads screen (spec/001 §2). */

const PARTS = ['major', 'minor', 'patch', 'revision'] as const;

/** Negative, zero or positive as `a` is older than, equal to or newer than `b`. */
export function compareVersions(a: VersionNumber, b: VersionNumber): number {
  for (const part of PARTS) {
    const d = a[part] - b[part];
    if (d !== 0) return d;
  }
  return 0;
}

export const NO_VERSION = 'N/A';

/** "major.minor.patch.revision", or "N/A" without a version. */
export function formatVersion(version: VersionNumber | null | undefined): string {
  if (!version) return NO_VERSION;
  return PARTS.map((p) => version[p]).join('.');
}

/** The SDK version an OS card shows: its first artifact's, or "N/A". */
export function firstArtifactSdkVersion(artifacts: readonly Pick<Artifact, 'version_info'>[]): string {
  return formatVersion(artifacts[0]?.version_info.sdk);
}

/**
 * The newest artifact for each platform: the highest sdk version; on equal versions the later
 * timestamp. Artifacts no platform offers are left out.
 */
export function newestArtifactPerPlatform<A extends Pick<Artifact, 'OS' | 'Arch' | 'version_info' | 'timestamp'>>(
  artifacts: readonly A[],
): Partial<Record<PlatformId, A>> {
  const best: Partial<Record<PlatformId, A>> = {};
  for (const artifact of artifacts) {
    const platform = platformOfArtifact(artifact);
    if (!platform) continue;
    const current = best[platform];
    if (!current) {
      best[platform] = artifact;
      continue;
    }
    const order = compareVersions(artifact.version_info.sdk, current.version_info.sdk);
    if (order > 0 || (order === 0 && artifact.timestamp > current.timestamp)) best[platform] = artifact;
  }
  return best;
}

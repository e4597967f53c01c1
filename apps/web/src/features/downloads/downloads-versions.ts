import { type Artifact, compareVersions, type VersionNumber } from '@portal/contract';
import { type PlatformId, platformOfArtifact } from './downloads-platform';

/** SDK versions of the Downloads screen (spec/001 §2). */

const NO_VERSION = 'N/A';

/** "major.minor.patch.revision", or "N/A" without a version. */
export function formatVersion(version: VersionNumber | null | undefined): string {
  if (!version) return NO_VERSION;
  return [version.major, version.minor, version.patch, version.revision].join('.');
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

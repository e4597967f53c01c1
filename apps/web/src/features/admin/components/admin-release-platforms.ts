import type { ArtifactArch, ArtifactOS } from '@portal/contract';

/** The platforms as the Downloads page names them (features/downloads, not imported: no cross-feature imports). */
const LABELS: Record<string, string> = {
  'windows/amd64': 'Windows',
  'mac/arm64': 'macOS (Apple Silicon)',
  'mac/amd64': 'macOS (Intel)',
  'linux/deb': 'Linux (DEB)',
  'linux/rpm': 'Linux (RPM)',
};

export const platformKey = (p: { os: ArtifactOS; arch: ArtifactArch }) => `${p.os}/${p.arch}`;

export const platformLabel = (p: { os: ArtifactOS; arch: ArtifactArch }) => LABELS[platformKey(p)] ?? platformKey(p);

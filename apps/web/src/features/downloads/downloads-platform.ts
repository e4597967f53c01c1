import type { Artifact } from '@portal/contract';

/** Download platform detection and choice of spec/001 §2 (Downloads). */

export type DetectedOS = 'Windows' | 'Mac' | 'Linux' | 'other';
export type Bitness = 64 | 86;

/** The fields of `navigator.userAgentData` (and its high-entropy values) that are read. */
export interface UserAgentDataLike {
  platform?: string;
  architecture?: string;
  bitness?: string;
  mobile?: boolean;
}

const MOBILE = /android|iphone|ipad|ipod|mobile/i;

/** The browser's operating system: Windows, Mac, Linux or other (phones and tablets are other). */
export function detectOS(userAgent: string, data?: UserAgentDataLike | null): DetectedOS {
  const platform = (data?.platform ?? '').toLowerCase();
  if (platform) {
    if (platform.includes('win')) return 'Windows';
    if (platform.includes('mac')) return 'Mac';
    if (platform.includes('linux') && !platform.includes('android')) return 'Linux';
    return 'other';
  }
  if (MOBILE.test(userAgent)) return 'other';
  if (/windows|win32|win64/i.test(userAgent)) return 'Windows';
  if (/macintosh|mac os x|darwin/i.test(userAgent)) return 'Mac';
  if (/linux|x11|cros/i.test(userAgent)) return 'Linux';
  return 'other';
}

const SIXTY_FOUR = /x86_64|x86-64|x64|win64|wow64|amd64|arm64|aarch64/i;

/** 64 or 86: 86 unless 64-bit is found. */
export function detectBitness(userAgent: string, data?: UserAgentDataLike | null): Bitness {
  if (data?.bitness === '64') return 64;
  return SIXTY_FOUR.test(userAgent) ? 64 : 86;
}

/**
 * The CPU architecture, lower case ('arm64', 'arm', 'x86_64', 'x86'), or '' when unknown. Client
 * hints win: browsers on Apple silicon still claim "Intel" in the user-agent string.
 */
export function detectArchitecture(userAgent: string, data?: UserAgentDataLike | null): string {
  const hinted = (data?.architecture ?? '').toLowerCase();
  if (hinted) {
    if (hinted.includes('arm')) return data?.bitness === '64' ? 'arm64' : 'arm';
    if (hinted.includes('x86')) return data?.bitness === '64' ? 'x86_64' : 'x86';
    return hinted;
  }
  if (/arm64|aarch64/i.test(userAgent)) return 'arm64';
  if (/\barm/i.test(userAgent)) return 'arm';
  if (/x86_64|x86-64|x64|amd64|win64|wow64/i.test(userAgent)) return 'x86_64';
  if (/i[3-6]86|x86|intel/i.test(userAgent)) return 'x86';
  return '';
}

export interface DetectedPlatform {
  os: DetectedOS;
  bitness: Bitness;
  architecture: string;
}

export function detectPlatform(userAgent: string, data?: UserAgentDataLike | null): DetectedPlatform {
  return {
    os: detectOS(userAgent, data),
    bitness: detectBitness(userAgent, data),
    architecture: detectArchitecture(userAgent, data),
  };
}

export const PLATFORM_IDS = ['windows', 'apple_intel', 'apple_silicon', 'linux_rpm', 'linux_deb'] as const;
export type PlatformId = (typeof PLATFORM_IDS)[number];

export interface PlatformOption {
  id: PlatformId;
  label: string;
  description: string;
}

/** The spec gives each option's description; the labels are the project's. */
export const PLATFORM_OPTIONS: readonly PlatformOption[] = [
  { id: 'windows', label: 'Windows', description: 'AMD64, Windows 10 or later' },
  { id: 'apple_intel', label: 'macOS (Intel)', description: 'macOS on Intel' },
  { id: 'apple_silicon', label: 'macOS (Apple Silicon)', description: 'macOS ARM64' },
  { id: 'linux_rpm', label: 'Linux (RPM)', description: 'RPM-based Linux' },
  { id: 'linux_deb', label: 'Linux (DEB)', description: 'Ubuntu 18.04 or later' },
];

export function platformOption(id: PlatformId): PlatformOption {
  return PLATFORM_OPTIONS.find((o) => o.id === id)!;
}

/** The platform the detected system points at: Windows for win, macOS for mac or darwin, else linux_deb. */
export function preferredPlatform(detected: { os: string; architecture: string }): PlatformId {
  const os = detected.os.toLowerCase();
  // "darwin" contains "win": mac is tested first.
  if (os.includes('mac') || os.includes('darwin'))
    return detected.architecture.toLowerCase().includes('arm') ? 'apple_silicon' : 'apple_intel';
  if (os.includes('win')) return 'windows';
  return 'linux_deb';
}

/**
 * The default choice: the preferred platform if a download exists for it, else linux_deb, else the
 * first available one (in `available`'s order); undefined when nothing is available.
 */
export function defaultPlatform(
  detected: { os: string; architecture: string },
  available: readonly PlatformId[],
): PlatformId | undefined {
  const preferred = preferredPlatform(detected);
  if (available.includes(preferred)) return preferred;
  if (available.includes('linux_deb')) return 'linux_deb';
  return available[0];
}

/** Which platform an artifact serves, or undefined for a combination no option offers. */
export function platformOfArtifact(artifact: Pick<Artifact, 'OS' | 'Arch'>): PlatformId | undefined {
  switch (artifact.OS) {
    case 'windows':
      return artifact.Arch === 'amd64' ? 'windows' : undefined;
    case 'mac':
      return artifact.Arch === 'arm64' ? 'apple_silicon' : artifact.Arch === 'amd64' ? 'apple_intel' : undefined;
    case 'linux':
      return artifact.Arch === 'rpm' ? 'linux_rpm' : artifact.Arch === 'deb' ? 'linux_deb' : undefined;
    default:
      return undefined;
  }
}

import { type Artifact, type ArtifactOS, type Asset, AssetType, compareVersions } from '@portal/contract';
import {
  type DetectedPlatform,
  defaultPlatform,
  PLATFORM_IDS,
  type PlatformId,
  platformOfArtifact,
  preferredPlatform,
} from './downloads-platform';
import { firstArtifactSdkVersion, newestArtifactPerPlatform } from './downloads-versions';

/** The Downloads screen's choices (spec/001 §2): operating-system cards, then that system's platforms. */

export interface DownloadOs {
  id: ArtifactOS;
  name: string;
  description: string;
  /** the platform options of spec/001 that run on it, in the order they are offered */
  platforms: readonly PlatformId[];
}

export const DOWNLOAD_OSES: readonly DownloadOs[] = [
  { id: 'windows', name: 'Windows', description: 'Windows 10 or later on 64-bit PCs', platforms: ['windows'] },
  {
    id: 'mac',
    name: 'macOS',
    description: 'Macs with Apple silicon or Intel processors',
    platforms: ['apple_silicon', 'apple_intel'],
  },
  {
    id: 'linux',
    name: 'Linux',
    description: 'Ubuntu 18.04 or later, and RPM-based distributions',
    platforms: ['linux_deb', 'linux_rpm'],
  },
];

export const DETECTED_BADGE = 'Detected';

export const DOWNLOAD_MESSAGES = {
  noAssets: 'No downloads are currently available',
  noArtifacts: 'No artifacts available',
  noneCompatible: 'No compatible downloads found for any operating system',
  noneForOs: (osName: string) => `No downloads available for ${osName}`,
  noneCompatibleForOs: 'No compatible downloads available',
} as const;

/** One downloadable file: the newest artifact of a platform and the asset it belongs to. */
export interface Offer {
  platform: PlatformId;
  asset: Asset;
  artifact: Artifact;
}

export interface OsCard {
  os: DownloadOs;
  /** "Detected" on the card of the browser's system */
  badge?: string;
  /** the first (newest) artifact's sdk version, or N/A */
  sdkVersion: string;
  /** every artifact built for this system, compatible or not */
  artifactCount: number;
  /** the newest artifact of each of its platforms that has one, in the system's platform order */
  offers: Offer[];
}

export type DownloadsView =
  | { kind: 'message'; message: string }
  | { kind: 'ready'; cards: OsCard[]; defaultOs: ArtifactOS; defaultPlatform: PlatformId };

const newestFirst = (a: Artifact, b: Artifact) =>
  compareVersions(b.version_info.sdk, a.version_info.sdk) || b.timestamp - a.timestamp;

/** Which card the detected system points at (anything else is offered Linux, as the default rule does). */
function osOfDetected(detected: DetectedPlatform): ArtifactOS | undefined {
  if (detected.os === 'Windows') return 'windows';
  if (detected.os === 'Mac') return 'mac';
  if (detected.os === 'Linux') return 'linux';
  return undefined;
}

function osOfPlatform(platform: PlatformId): DownloadOs {
  return DOWNLOAD_OSES.find((o) => o.platforms.includes(platform)) as DownloadOs;
}

/**
 * What the screen offers for the assets GetAll answered and the detected system. Only applications
 * (the Hub) are downloads; robot drivers are licensed per robot and have nothing to download here.
 */
export function downloadsView(all: readonly Asset[], detected: DetectedPlatform): DownloadsView {
  const assets = all.filter((a) => a.type === AssetType.Application);
  if (assets.length === 0) return { kind: 'message', message: DOWNLOAD_MESSAGES.noAssets };
  const assetOf = new Map<Artifact, Asset>();
  for (const asset of assets) for (const artifact of asset.artifacts) assetOf.set(artifact, asset);
  const artifacts = [...assetOf.keys()];
  if (artifacts.length === 0) return { kind: 'message', message: DOWNLOAD_MESSAGES.noArtifacts };

  const newest = newestArtifactPerPlatform(artifacts);
  const available = PLATFORM_IDS.filter((p) => newest[p]);
  const chosen = defaultPlatform(detected, available);
  if (!chosen) return { kind: 'message', message: DOWNLOAD_MESSAGES.noneCompatible };

  const detectedOs = osOfDetected(detected);
  const cards = DOWNLOAD_OSES.map((os): OsCard => {
    const own = artifacts.filter((a) => a.OS === os.id).sort(newestFirst);
    const compatible = own.filter((a) => platformOfArtifact(a) !== undefined);
    const offers = os.platforms.flatMap((platform) => {
      const artifact = newest[platform];
      const asset = artifact && assetOf.get(artifact);
      return artifact && asset ? [{ platform, asset, artifact }] : [];
    });
    return {
      os,
      ...(os.id === detectedOs ? { badge: DETECTED_BADGE } : {}),
      sdkVersion: firstArtifactSdkVersion(compatible.length ? compatible : own),
      artifactCount: own.length,
      offers,
    };
  });
  return { kind: 'ready', cards, defaultOs: osOfPlatform(chosen).id, defaultPlatform: chosen };
}

export type OsChoice = { kind: 'message'; message: string } | { kind: 'ready'; offers: Offer[]; selected: Offer };

/**
 * The platform offered on a card: the one asked for if the card has it, else the detected system's
 * preferred platform, else linux_deb, else the card's first.
 */
export function osChoice(card: OsCard, detected: DetectedPlatform, wanted?: PlatformId): OsChoice {
  if (card.artifactCount === 0) return { kind: 'message', message: DOWNLOAD_MESSAGES.noneForOs(card.os.name) };
  const [first] = card.offers;
  if (!first) return { kind: 'message', message: DOWNLOAD_MESSAGES.noneCompatibleForOs };
  const find = (p: PlatformId | undefined) => card.offers.find((o) => o.platform === p);
  const selected = find(wanted) ?? find(preferredPlatform(detected)) ?? find('linux_deb') ?? first;
  return { kind: 'ready', offers: card.offers, selected };
}

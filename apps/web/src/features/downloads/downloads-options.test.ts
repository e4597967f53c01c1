import { type Artifact, type ArtifactArch, type ArtifactOS, type Asset, AssetType } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import { DOWNLOAD_OSES, downloadsView, type OsCard, osChoice } from './downloads-options';
import type { DetectedPlatform } from './downloads-platform';

const v = (major: number, minor = 0, patch = 0, revision = 0) => ({ major, minor, patch, revision });

function artifact(OS: ArtifactOS, Arch: ArtifactArch, sdk = v(1), timestamp = 0): Artifact {
  return {
    path: `${OS}-${Arch}-${sdk.major}.${sdk.minor}`,
    asset_id: 'hub',
    OS,
    Arch,
    version_info: { sdk, client: v(0), core: v(0), messaging: v(0) },
    language: '',
    timestamp,
    checksum: '',
  };
}

function asset(artifacts: Artifact[], id = 'hub', type: string = AssetType.Application): Asset {
  return { id, type, name: 'Hub', description: '', author: '', license: '', make: '', model: '', artifacts };
}

const mac: DetectedPlatform = { os: 'Mac', bitness: 64, architecture: 'arm64' };
const macIntel: DetectedPlatform = { os: 'Mac', bitness: 64, architecture: 'x86_64' };
const windows: DetectedPlatform = { os: 'Windows', bitness: 64, architecture: 'x86_64' };
const other: DetectedPlatform = { os: 'other', bitness: 86, architecture: '' };

const all = [
  artifact('windows', 'amd64'),
  artifact('mac', 'amd64'),
  artifact('mac', 'arm64'),
  artifact('linux', 'deb'),
  artifact('linux', 'rpm'),
];

describe('downloadsView messages', () => {
  it.each([
    ['no assets', [], 'No downloads are currently available'],
    [
      'only robot drivers, even with artifacts',
      [asset([artifact('windows', 'amd64')], 'nao-driver', AssetType.RobotDriver)],
      'No downloads are currently available',
    ],
    ['assets without artifacts', [asset([])], 'No artifacts available'],
    [
      'robot drivers are not counted',
      [asset([]), asset([artifact('linux', 'deb')], 'driver', AssetType.RobotDriver)],
      'No artifacts available',
    ],
    [
      'only artifacts no platform offers',
      [asset([artifact('windows', 'arm64'), artifact('mac', 'deb')])],
      'No compatible downloads found for any operating system',
    ],
  ])('%s', (_name, assets, message) => {
    expect(downloadsView(assets, windows)).toEqual({ kind: 'message', message });
  });
});

describe('downloadsView default choice', () => {
  it.each([
    ['Windows gets windows', windows, all, 'windows', 'windows'],
    ['Mac on ARM gets Apple silicon', mac, all, 'mac', 'apple_silicon'],
    ['Mac on Intel gets apple_intel', macIntel, all, 'mac', 'apple_intel'],
    ['anything else gets linux_deb', other, all, 'linux', 'linux_deb'],
    [
      'unavailable detected platform falls back to linux_deb',
      windows,
      [artifact('mac', 'arm64'), artifact('linux', 'deb')],
      'linux',
      'linux_deb',
    ],
    [
      'then to the first available',
      other,
      [artifact('linux', 'rpm'), artifact('mac', 'arm64')],
      'mac',
      'apple_silicon',
    ],
  ] as const)('%s', (_name, detected, artifacts, os, platform) => {
    const view = downloadsView([asset([...artifacts])], detected);
    expect(view).toMatchObject({ kind: 'ready', defaultOs: os, defaultPlatform: platform });
  });
});

describe('downloadsView cards', () => {
  const view = downloadsView(
    [
      asset([artifact('linux', 'deb', v(1, 2, 3, 4)), artifact('linux', 'deb', v(1, 10, 0, 0))], 'hub'),
      asset([artifact('linux', 'rpm', v(0, 9)), artifact('mac', 'arm64', v(2, 0, 0, 1))], 'hub-extra'),
    ],
    mac,
  );
  if (view.kind !== 'ready') throw new Error('expected cards');
  const card = (id: string) => view.cards.find((c) => c.os.id === id) as OsCard;

  it('has one card per operating system, in order', () => {
    expect(view.cards.map((c) => c.os.id)).toEqual(DOWNLOAD_OSES.map((o) => o.id));
  });

  it.each([
    ['windows', 'N/A', 0, undefined],
    ['mac', '2.0.0.1', 1, 'Detected'],
    ['linux', '1.10.0.0', 3, undefined],
  ])('%s card: version %s, %i artifacts, badge %s', (id, version, count, badge) => {
    expect(card(id).sdkVersion).toBe(version);
    expect(card(id).artifactCount).toBe(count);
    expect(card(id).badge).toBe(badge);
  });

  it('offers the newest artifact per platform with its asset', () => {
    expect(card('linux').offers.map((o) => [o.platform, o.asset.id, o.artifact.version_info.sdk.minor])).toEqual([
      ['linux_deb', 'hub', 10],
      ['linux_rpm', 'hub-extra', 9],
    ]);
  });
});

describe('osChoice', () => {
  const view = downloadsView(
    [asset([...all, artifact('windows', 'arm64')]), asset([artifact('windows', 'arm64')], 'arm-only')],
    windows,
  );
  if (view.kind !== 'ready') throw new Error('expected cards');
  const card = (id: string) => view.cards.find((c) => c.os.id === id) as OsCard;
  const empty: OsCard = { ...card('mac'), artifactCount: 0, offers: [] };
  const incompatible: OsCard = { ...card('windows'), offers: [] };

  it.each([
    ['no artifacts for the system', empty, windows, undefined, 'No downloads available for macOS'],
    ['artifacts but none compatible', incompatible, windows, undefined, 'No compatible downloads available'],
  ])('%s', (_name, c, detected, wanted, message) => {
    expect(osChoice(c, detected, wanted)).toEqual({ kind: 'message', message });
  });

  // The cards downloadsView makes from real answers reach the same two messages.
  it.each([
    ['macOS', 'mac', [artifact('windows', 'amd64'), artifact('linux', 'deb')], 'No downloads available for macOS'],
    ['Windows', 'windows', [artifact('mac', 'arm64'), artifact('linux', 'rpm')], 'No downloads available for Windows'],
    ['Linux', 'linux', [artifact('windows', 'amd64'), artifact('mac', 'amd64')], 'No downloads available for Linux'],
    [
      'Windows with only ARM builds',
      'windows',
      [artifact('windows', 'arm64', v(3)), artifact('linux', 'deb')],
      'No compatible downloads available',
    ],
    [
      'macOS with only Linux packages filed under it',
      'mac',
      [artifact('mac', 'deb'), artifact('mac', 'rpm'), artifact('windows', 'amd64')],
      'No compatible downloads available',
    ],
  ] as const)('a system without usable builds: %s', (_name, id, artifacts, message) => {
    const derived = downloadsView([asset([...artifacts])], windows);
    if (derived.kind !== 'ready') throw new Error('expected cards');
    const c = derived.cards.find((x) => x.os.id === id) as OsCard;
    expect(osChoice(c, windows)).toEqual({ kind: 'message', message });
  });

  it('a system without builds shows SDK version N/A; one with only incompatible builds shows theirs', () => {
    const derived = downloadsView([asset([artifact('windows', 'arm64', v(3, 1)), artifact('linux', 'deb')])], windows);
    if (derived.kind !== 'ready') throw new Error('expected cards');
    const c = (id: string) => derived.cards.find((x) => x.os.id === id) as OsCard;
    expect(c('mac')).toMatchObject({ sdkVersion: 'N/A', artifactCount: 0, offers: [] });
    expect(c('windows')).toMatchObject({ sdkVersion: '3.1.0.0', artifactCount: 1, offers: [] });
  });

  it.each([
    ['wanted platform wins', 'mac', windows, 'apple_intel', 'apple_intel'],
    ['detected preference next', 'mac', macIntel, undefined, 'apple_intel'],
    ['the first offer for another system', 'mac', windows, undefined, 'apple_silicon'],
    ['linux_deb before rpm', 'linux', windows, undefined, 'linux_deb'],
    ['a wanted platform of another card is ignored', 'linux', windows, 'windows', 'linux_deb'],
  ] as const)('%s', (_name, id, detected, wanted, platform) => {
    const choice = osChoice(card(id), detected, wanted);
    expect(choice.kind === 'ready' && choice.selected.platform).toBe(platform);
  });
});

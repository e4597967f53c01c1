import type { Artifact, ArtifactArch, ArtifactOS, VersionNumber } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import { firstArtifactSdkVersion, formatVersion, newestArtifactPerPlatform } from './downloads-versions';

const v = (major: number, minor: number, patch: number, revision: number): VersionNumber => ({
  major,
  minor,
  patch,
  revision,
});

const art = (path: string, OS: ArtifactOS, Arch: ArtifactArch, sdk: VersionNumber, timestamp = 0): Artifact => ({
  path,
  asset_id: 'hub',
  OS,
  Arch,
  version_info: { sdk, client: sdk, core: sdk, messaging: sdk },
  language: 'en',
  timestamp,
  checksum: '',
});

describe('formatVersion', () => {
  it.each([
    [v(1, 2, 3, 4), '1.2.3.4'],
    [v(0, 0, 0, 0), '0.0.0.0'],
    [v(10, 20, 30, 40), '10.20.30.40'],
    [undefined, 'N/A'],
    [null, 'N/A'],
  ])('%o -> %s', (version, text) => {
    expect(formatVersion(version)).toBe(text);
  });

  it.each([
    [[art('a', 'windows', 'amd64', v(3, 1, 0, 7)), art('b', 'windows', 'amd64', v(4, 0, 0, 0))], '3.1.0.7'],
    [[], 'N/A'],
  ])('first artifact of %o shows %s', (artifacts, text) => {
    expect(firstArtifactSdkVersion(artifacts)).toBe(text);
  });
});

describe('newestArtifactPerPlatform', () => {
  it.each([
    [
      'one per platform',
      [art('w', 'windows', 'amd64', v(1, 0, 0, 0)), art('d', 'linux', 'deb', v(1, 0, 0, 0))],
      { windows: 'w', linux_deb: 'd' },
    ],
    [
      'highest sdk wins, by revision',
      [
        art('old', 'windows', 'amd64', v(1, 2, 3, 4)),
        art('new', 'windows', 'amd64', v(1, 2, 3, 5)),
        art('mid', 'windows', 'amd64', v(1, 2, 3, 0)),
      ],
      { windows: 'new' },
    ],
    [
      'major beats minor',
      [art('a', 'mac', 'arm64', v(1, 99, 0, 0)), art('b', 'mac', 'arm64', v(2, 0, 0, 0))],
      { apple_silicon: 'b' },
    ],
    [
      'same version: later timestamp',
      [art('first', 'linux', 'rpm', v(1, 0, 0, 0), 10), art('later', 'linux', 'rpm', v(1, 0, 0, 0), 20)],
      { linux_rpm: 'later' },
    ],
    [
      'mac Intel and ARM are separate',
      [art('i', 'mac', 'amd64', v(1, 0, 0, 0)), art('a', 'mac', 'arm64', v(0, 1, 0, 0))],
      { apple_intel: 'i', apple_silicon: 'a' },
    ],
    ['unsupported combinations are left out', [art('x', 'linux', 'amd64', v(9, 0, 0, 0))], {}],
    ['nothing', [], {}],
  ] as const)('%s', (_name, artifacts, expected) => {
    const newest = newestArtifactPerPlatform(artifacts);
    expect(Object.fromEntries(Object.entries(newest).map(([k, a]) => [k, a?.path]))).toEqual(expected);
  });
});

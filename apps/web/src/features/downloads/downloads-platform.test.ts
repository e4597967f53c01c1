import { describe, expect, it } from 'vitest';
import {
  defaultPlatform,
  detectArchitecture,
  detectBitness,
  detectOS,
  detectPlatform,
  type PlatformId,
  platformOfArtifact,
  preferredPlatform,
} from './downloads-platform';

const UA = {
  win64: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
  win32: 'Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
  wow64: 'Mozilla/5.0 (Windows NT 6.1; WOW64; rv:40.0) Gecko/20100101 Firefox/40.0',
  mac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  linux: 'Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0',
  linuxArm: 'Mozilla/5.0 (X11; Linux aarch64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
  linux32: 'Mozilla/5.0 (X11; Linux i686; rv:109.0) Gecko/20100101 Firefox/115.0',
  android:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36',
  iphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  empty: '',
};

describe('detectOS', () => {
  it.each([
    [UA.win64, undefined, 'Windows'],
    [UA.win32, undefined, 'Windows'],
    [UA.mac, undefined, 'Mac'],
    [UA.linux, undefined, 'Linux'],
    [UA.linuxArm, undefined, 'Linux'],
    [UA.android, undefined, 'other'],
    [UA.iphone, undefined, 'other'],
    [UA.empty, undefined, 'other'],
    ['Mozilla/5.0 (FreeBSD)', undefined, 'other'],
    [UA.linux, { platform: 'Windows' }, 'Windows'],
    [UA.empty, { platform: 'macOS' }, 'Mac'],
    [UA.empty, { platform: 'Linux' }, 'Linux'],
    [UA.android, { platform: 'Android' }, 'other'],
    [UA.win64, { platform: '' }, 'Windows'],
  ] as const)('%s with %o -> %s', (ua, data, os) => {
    expect(detectOS(ua, data)).toBe(os);
  });
});

describe('detectBitness', () => {
  it.each([
    [UA.win64, undefined, 64],
    [UA.wow64, undefined, 64],
    [UA.win32, undefined, 86],
    [UA.mac, undefined, 86],
    [UA.linux, undefined, 64],
    [UA.linuxArm, undefined, 64],
    [UA.linux32, undefined, 86],
    [UA.empty, undefined, 86],
    [UA.mac, { bitness: '64' }, 64],
    [UA.win32, { bitness: '32' }, 86],
  ] as const)('%s with %o -> %i', (ua, data, bits) => {
    expect(detectBitness(ua, data)).toBe(bits);
  });
});

describe('detectArchitecture', () => {
  it.each([
    [UA.win64, undefined, 'x86_64'],
    [UA.linux, undefined, 'x86_64'],
    [UA.linuxArm, undefined, 'arm64'],
    [UA.linux32, undefined, 'x86'],
    [UA.mac, undefined, 'x86'],
    [UA.empty, undefined, ''],
    [UA.mac, { architecture: 'arm', bitness: '64' }, 'arm64'],
    [UA.mac, { architecture: 'x86', bitness: '64' }, 'x86_64'],
    [UA.empty, { architecture: 'arm' }, 'arm'],
    [UA.empty, { architecture: 'riscv' }, 'riscv'],
  ] as const)('%s with %o -> %s', (ua, data, arch) => {
    expect(detectArchitecture(ua, data)).toBe(arch);
  });

  it('detectPlatform puts the three together', () => {
    expect(detectPlatform(UA.win64)).toEqual({ os: 'Windows', bitness: 64, architecture: 'x86_64' });
  });
});

describe('preferredPlatform', () => {
  it.each([
    ['Windows', 'x86_64', 'windows'],
    ['win32', '', 'windows'],
    ['Mac', 'arm64', 'apple_silicon'],
    ['Mac', 'x86', 'apple_intel'],
    ['Mac', '', 'apple_intel'],
    ['darwin', 'arm', 'apple_silicon'],
    ['darwin', 'x86_64', 'apple_intel'],
    ['Linux', 'x86_64', 'linux_deb'],
    ['other', 'arm64', 'linux_deb'],
  ])('%s / %s -> %s', (os, architecture, id) => {
    expect(preferredPlatform({ os, architecture })).toBe(id);
  });
});

describe('defaultPlatform', () => {
  const all: PlatformId[] = ['windows', 'apple_intel', 'apple_silicon', 'linux_rpm', 'linux_deb'];
  it.each([
    ['detected and available', 'Windows', '', all, 'windows'],
    ['mac arm available', 'Mac', 'arm64', all, 'apple_silicon'],
    ['detected unavailable -> linux_deb', 'Windows', '', ['linux_rpm', 'linux_deb'], 'linux_deb'],
    ['neither -> first available', 'Mac', 'arm64', ['linux_rpm', 'windows'], 'linux_rpm'],
    ['nothing available', 'Windows', '', [], undefined],
    ['linux on an rpm-only catalogue', 'Linux', '', ['linux_rpm'], 'linux_rpm'],
  ] as const)('%s', (_name, os, architecture, available, id) => {
    expect(defaultPlatform({ os, architecture }, available)).toBe(id);
  });
});

describe('platformOfArtifact', () => {
  it.each([
    ['windows', 'amd64', 'windows'],
    ['windows', 'arm64', undefined],
    ['mac', 'amd64', 'apple_intel'],
    ['mac', 'arm64', 'apple_silicon'],
    ['mac', 'deb', undefined],
    ['linux', 'deb', 'linux_deb'],
    ['linux', 'rpm', 'linux_rpm'],
    ['linux', 'amd64', undefined],
  ] as const)('%s %s -> %s', (OS, Arch, id) => {
    expect(platformOfArtifact({ OS, Arch })).toBe(id);
  });
});

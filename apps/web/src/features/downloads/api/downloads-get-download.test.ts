import { type Artifact, type Asset, AssetType, ErrorCodes } from '@portal/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { storeSession } from '@/lib/session';
import { failure, fakeServer, OK, tokenPair, user } from '@/test/fake-server';
import { downloadFailureToast, fetchDownloadLink } from './downloads-get-download';

afterEach(() => vi.unstubAllGlobals());

const artifact = {
  path: 'robot-hub/1.4.0.0/linux-deb/robot-hub.deb',
  asset_id: 'robot-hub',
  OS: 'linux',
  Arch: 'deb',
  version_info: {
    sdk: { major: 1, minor: 4, patch: 0, revision: 0 },
    client: { major: 1, minor: 4, patch: 0, revision: 0 },
    core: { major: 1, minor: 4, patch: 0, revision: 0 },
    messaging: { major: 1, minor: 4, patch: 0, revision: 0 },
  },
  language: '',
  timestamp: 1,
  checksum: 'ab'.repeat(32),
} as Artifact;
const asset = { id: 'robot-hub', type: AssetType.Application, name: 'Robot Hub', artifacts: [artifact] } as Asset;

/** The toast a GetDownload answered this way ends in (spec/001 §8), and how many calls were made. */
async function toastFor(
  answer: { status?: number; json: unknown } | 'no answer',
  chosen: { artifact?: Artifact } = { artifact },
) {
  storeSession(tokenPair(), user(), true);
  const server = fakeServer({
    GetDownload: () => (answer === 'no answer' ? Promise.reject(new TypeError('fetch failed')) : answer),
  });
  const err = await fetchDownloadLink({ asset, artifact: chosen.artifact, agreementVersion: '2026-01' }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeDefined();
  return { toast: downloadFailureToast(err), calls: server.calls.length };
}

describe('a download that does not start (spec/001 §8)', () => {
  it.each([
    [
      'storage down (503 UNAVAILABLE)',
      {
        status: 503,
        json: failure(
          ErrorCodes.UNAVAILABLE.code,
          'Downloads are unavailable right now, please try again in a few minutes (request r-1)',
        ),
      },
    ],
    ['a server error', { status: 500, json: failure(500, 'Internal server error (request r-2)') }],
    ['a refusal', { status: 400, json: failure(100, 'agreement_version: must be the current license agreement') }],
    ['an answer without a link', { json: { download_link: '', error: OK } }],
    ['no answer at all', 'no answer' as const],
  ])('%s: "Failed to fetch download link"', async (_name, answer) => {
    expect((await toastFor(answer)).toast).toBe('Failed to fetch download link');
  });

  it('an artifact the server no longer holds (404): "Invalid asset for download"', async () => {
    const answer = { status: 404, json: failure(103, 'assets.artifacts.0.path: Invalid asset for download') };
    expect((await toastFor(answer)).toast).toBe('Invalid asset for download');
  });

  it('no artifact chosen: "Invalid asset for download", without a call', async () => {
    expect(await toastFor({ json: {} }, {})).toEqual({ toast: 'Invalid asset for download', calls: 0 });
  });
});

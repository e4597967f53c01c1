import { afterEach, describe, expect, it, vi } from 'vitest';
import { storeSession } from '@/lib/session';
import { failure, fakeServer, OK, tokenPair, user } from '@/test/fake-server';
import { fetchAssets } from './downloads-get-assets';

afterEach(() => vi.unstubAllGlobals());

describe('fetchAssets (spec/001 §8)', () => {
  it.each([
    [
      'an answer the contract cannot read',
      () => ({ json: { assets: 'not a list', error: OK } }),
      'Invalid assets data received',
    ],
    ['a server failure', () => ({ status: 500, json: failure(500, 'Internal error') }), 'Failed to fetch assets'],
    ['a refusal', () => ({ status: 404, json: failure(103, 'No such service') }), 'Failed to fetch assets'],
  ])('names %s', async (_label, GetAll, message) => {
    storeSession(tokenPair(), user(), true);
    fakeServer({ GetAll });
    await expect(fetchAssets()).rejects.toThrow(message);
  });

  it('keeps a missing session as such, so nothing retries it', async () => {
    fakeServer({});
    await expect(fetchAssets()).rejects.toMatchObject({ kind: 'unauthenticated' });
  });
});

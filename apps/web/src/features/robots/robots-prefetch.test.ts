import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { robotsBaseKey, robotsQueryOptions } from '@/lib/robots';
import { storeSession } from '@/lib/session';
import { failure, fakeServer, OK, tokenPair, user } from '@/test/fake-server';
import { prefetchRobotManager } from './robots-prefetch';

const EMAIL = 'ada@example.com';
const licence = (id: string, robotId: string, model: string) => ({
  robot_id: robotId,
  asset_id: `driver-${id}`,
  robot_license: { license_id: id, start_date: 1, duration: 1, end_date: 2 },
  robot_make: model,
  robot_model: model,
  pair_code: '',
  paired_status: robotId !== '',
  isFlexible: false,
});
const LICENCES = {
  error: OK,
  user_licenses: {
    email: EMAIL,
    asset_licenses: [],
    robot_licenses: [licence('lic-1', 'robot-1', 'Pepper'), licence('lic-2', '', 'Nao')],
    shared_robot_licenses: [licence('lic-3', 'robot-3', 'Pepper')],
  },
};
const ROBOTS = {
  error: OK,
  robots: [{ robot_id: 'robot-1', make: 'Pepper', model: 'Pepper', name: 'P', join_date: 0 }],
};

let images: string[];
beforeEach(() => {
  storeSession(tokenPair(), user(), true);
  images = [];
  vi.stubGlobal(
    'Image',
    class {
      decoding = '';
      set src(url: string) {
        images.push(url);
      }
    },
  );
});
afterEach(() => vi.unstubAllGlobals());

const settled = () => new Promise((resolve) => setTimeout(resolve, 20));

/** A server whose GetLicences answers once `release` is called; `gets` counts the CSRF GETs. */
function licencesHeld() {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const server = fakeServer({
    GetLicences: async () => {
      await held;
      return { json: LICENCES };
    },
    GetRobots: () => ({ json: ROBOTS }),
  });
  const gets = () => server.fetch.mock.calls.filter(([, init]) => (init?.method ?? 'GET') === 'GET').length;
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return { server, release, gets, client };
}

describe('prefetchRobotManager (decision 044)', () => {
  it("asks GetRobots for the paired and the shared licenses' robots as soon as GetLicences answers, and fetches the first pictures", async () => {
    const server = fakeServer({ GetLicences: () => ({ json: LICENCES }), GetRobots: () => ({ json: ROBOTS }) });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    prefetchRobotManager(client, EMAIL);
    await vi.waitFor(() => expect(server.count('GetRobots')).toBe(2));
    await settled();
    expect(server.calls.map((c) => c.action)).toEqual(['GetLicences', 'GetRobots', 'GetRobots']);
    // under the keys the screen's hook asks for, so the screen finds the answers in the cache
    const paired = robotsQueryOptions(EMAIL, 'paired', [{ robot_id: 'robot-1', asset_id: 'driver-lic-1' }]);
    const shared = robotsQueryOptions(EMAIL, 'shared', [{ robot_id: 'robot-3', asset_id: 'driver-lic-3' }]);
    expect(client.getQueryState(paired.queryKey)?.status).toBe('success');
    expect(client.getQueryState(shared.queryKey)?.status).toBe('success');
    expect(images).toEqual(['/images/robots/pepper.svg', '/images/robots/nao.svg']);
  });

  it("asks for both GetRobots' CSRF tokens while GetLicences is answered, so GetRobots waits for no GET of its own", async () => {
    const { server, release, gets, client } = licencesHeld();
    prefetchRobotManager(client, EMAIL);
    await vi.waitFor(() => expect(server.count('GetLicences')).toBe(1));
    // GetLicences' own token and the two GetRobots' tokens, all before GetLicences answered
    await vi.waitFor(() => expect(gets()).toBe(3));
    release();
    await vi.waitFor(() => expect(server.count('GetRobots')).toBe(2));
    expect(gets()).toBe(3);
    // a token serves one POST: a later run of the same queries fetches its own
    await client.refetchQueries({ queryKey: robotsBaseKey(EMAIL), type: 'all' });
    expect(server.count('GetRobots')).toBe(4);
    expect(gets()).toBe(5);
  });

  it.each([
    ['while GetLicences is on its way', false],
    ['once GetLicences has answered', true],
  ])(
    'asks for no token ahead when run again %s (the warm start, then the load): GetRobots is asked once',
    async (_when, answered) => {
      const { server, release, gets, client } = licencesHeld();
      prefetchRobotManager(client, EMAIL);
      await vi.waitFor(() => expect(gets()).toBe(3));
      if (answered) {
        release();
        await vi.waitFor(() => expect(server.count('GetRobots')).toBe(2));
      }
      prefetchRobotManager(client, EMAIL);
      release();
      await vi.waitFor(() => expect(server.count('GetRobots')).toBe(2));
      await settled();
      expect(server.calls.map((c) => c.action)).toEqual(['GetLicences', 'GetRobots', 'GetRobots']);
      expect(gets()).toBe(3);
    },
  );

  it('asks for the tokens again when the cached licenses are stale: that run sends GetLicences', async () => {
    const { server, release, gets, client } = licencesHeld();
    release();
    prefetchRobotManager(client, EMAIL);
    await vi.waitFor(() => expect(server.count('GetRobots')).toBe(2));
    await settled();
    await client.invalidateQueries({ refetchType: 'none' });
    prefetchRobotManager(client, EMAIL);
    await vi.waitFor(() => expect(server.count('GetRobots')).toBe(4));
    await settled();
    // each POST had exactly one GET: none left unused
    expect(server.count('GetLicences')).toBe(2);
    expect(gets()).toBe(6);
  });

  it('leaves a failed GetLicences to the screen: no GetRobots, no picture, no unhandled rejection', async () => {
    const server = fakeServer({ GetLicences: () => ({ status: 500, json: failure(100, 'Internal error') }) });
    prefetchRobotManager(new QueryClient({ defaultOptions: { queries: { retry: false } } }), EMAIL);
    await vi.waitFor(() => expect(server.count('GetLicences')).toBe(1));
    await settled();
    expect(server.count('GetRobots')).toBe(0);
    expect(images).toEqual([]);
  });
});

import { defineConfig, devices } from '@playwright/test';

/**
 * End-to-end tests drive Debian's Chromium against the real server (built app, real database in a
 * fresh data folder). Nothing of ours is mocked.
 */
const port = Number(process.env.E2E_PORT ?? 4173);
const dataDir = process.env.E2E_DATA_DIR ?? `/tmp/portal-e2e-${process.pid}`;
process.env.E2E_DATA_DIR = dataDir;
// Operator calls (granting licenses, time, subscriptions) seed states through the real API.
process.env.OPERATOR_TOKEN ??= 'e2e-operator-token-that-is-long-enough-0123456789';
export const baseURL = `http://127.0.0.1:${port}`;
/** Servers with no downloads at all, and with only Linux (DEB) and Windows ARM builds (see webServer). */
export const emptyServer = { url: `http://127.0.0.1:${port + 1}`, dataDir: `${dataDir}-empty` };
export const linuxOnlyServer = { url: `http://127.0.0.1:${port + 2}`, dataDir: `${dataDir}-linux` };
/**
 * Two instances on one PostgreSQL for the live-fleet test (apps/web/e2e/live/): that spec starts
 * them itself (apps/web/e2e/live/live-servers.ts), only where PostgreSQL is installed.
 */
export const liveServers = {
  a: { url: `http://127.0.0.1:${port + 3}`, dataDir: `${dataDir}-live-a` },
  b: { url: `http://127.0.0.1:${port + 4}`, dataDir: `${dataDir}-live-b` },
  pgPort: Number(process.env.E2E_LIVE_PG_PORT ?? port + 50_000),
  pgDir: `${dataDir}-live-pg`,
};
// E2E_BUILD_DIR: a private copy of the build (scripts/e2e-local.sh), so several people can run
// end-to-end tests on one machine while someone else rebuilds.
export const serverDir = process.env.E2E_BUILD_DIR ? `${process.env.E2E_BUILD_DIR}/server` : 'apps/server/dist';

export default defineConfig({
  testDir: 'apps/web/e2e',
  fullyParallel: true,
  workers: process.env.CI ? 2 : 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: '.test-output/e2e.json' }]],
  outputDir: 'test-results',
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } } }],
  webServer: [
    server({ port, dataDir, seedDemo: true }),
    // Two more servers whose artifact stores are set up by the operator command line before they
    // start, so the Downloads screen's empty states come from real data: none at all, and only a
    // Linux (DEB) build and a
    // Windows build for ARM (which no Windows platform option takes).
    server({ port: port + 1, dataDir: `${dataDir}-empty`, seedDemo: false }),
    server({
      port: port + 2,
      dataDir: `${dataDir}-linux`,
      seedDemo: false,
      before: [
        `node ${serverDir}/cli.js artifacts:add apps/web/e2e/robots/robot-hub-linux.deb --os linux --arch deb --version 2.0.1.0`,
        `node ${serverDir}/cli.js artifacts:add apps/web/e2e/robots/robot-hub-linux.deb --os windows --arch arm64 --version 2.0.1.0`,
      ].join(' && '),
    }),
  ],
});

/** The environment of an end-to-end server (its port, data folder, and the limits the tests need lifted). */
export function serverEnv(opts: { port: number; dataDir: string; seedDemo: boolean }): Record<string, string> {
  const url = `http://127.0.0.1:${opts.port}`;
  return {
    NODE_ENV: 'test',
    PORT: String(opts.port),
    HOST: '127.0.0.1',
    PUBLIC_URL: url,
    DATA_DIR: opts.dataDir,
    SEED_DEMO: String(opts.seedDemo),
    LOG_LEVEL: 'warn',
    // Every test signs in from 127.0.0.1; per-address limits are tested in the server suite.
    RATE_LOGIN_PER_ADDRESS: '100000',
    RATE_FORGOT_PER_ADDRESS: '100000',
    RATE_REGISTER_PER_ADDRESS: '100000',
    LOGIN_MAX_FAILURES: '5',
    LOCKOUT_S: '900',
    OPERATOR_TOKEN: process.env.OPERATOR_TOKEN as string,
    ...(process.env.E2E_BUILD_DIR ? { WEB_DIST: `${process.env.E2E_BUILD_DIR}/web` } : {}),
  };
}

function server(opts: { port: number; dataDir: string; seedDemo: boolean; before?: string }) {
  const url = `http://127.0.0.1:${opts.port}`;
  const env = serverEnv(opts);
  return {
    command: [`rm -rf ${opts.dataDir}`, opts.before, `node ${serverDir}/server.js`].filter(Boolean).join(' && '),
    url: `${url}/readyz`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
    env,
  };
}

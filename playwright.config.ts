import { existsSync } from 'node:fs';
import { chromium, defineConfig, devices } from '@playwright/test';
import { freePort } from '@portal/testing/net';

/**
 * End-to-end tests drive Chromium (Debian's, or the one CHROMIUM_PATH names) against the real server (built
 * app, real database in a fresh data folder). Nothing of ours is mocked.
 */

/**
 * The Chromium to drive: CHROMIUM_PATH, Debian's /usr/bin/chromium, or Playwright's own install. Without one,
 * the run stops with one line saying how to get one (this machine may not download browsers).
 */
function chromiumPath(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', chromium.executablePath()];
  const found = candidates.find((path) => path && existsSync(path));
  if (found) return found;
  console.error(
    "The end-to-end tests need Chromium: install Debian's (apt-get install chromium), or Playwright's where downloads are allowed (npx playwright install chromium), or set CHROMIUM_PATH to a Chromium or Chrome binary.",
  );
  process.exit(1);
}

/**
 * The servers' ports: E2E_PORT and the seven after it when it is set (scripts/e2e-local.sh), free loopback
 * ports otherwise, so two checkouts on one machine do not collide. They are chosen once, in the runner's
 * process, and reach the worker processes (which load this file again) through the environment.
 */
if (!process.env.E2E_PORTS) {
  const first = Number(process.env.E2E_PORT);
  const ports = first
    ? [0, 1, 2, 3, 4, 5, 6, 7].map((offset) => first + offset)
    : await Promise.all(Array.from({ length: 8 }, freePort));
  process.env.E2E_PORTS = ports.join(',');
}
const [port, emptyPort, linuxPort, liveAPort, liveBPort, canonicalPort, noStoragePort, deadStoragePort] = (
  process.env.E2E_PORTS as string
)
  .split(',')
  .map(Number) as [number, number, number, number, number, number, number, number];
const dataDir = process.env.E2E_DATA_DIR ?? `/tmp/portal-e2e-${process.pid}`;
process.env.E2E_DATA_DIR = dataDir;
// Operator calls (granting licenses, time, subscriptions) seed states through the real API.
process.env.OPERATOR_TOKEN ??= 'e2e-operator-token-that-is-long-enough-0123456789';
export const baseURL = `http://127.0.0.1:${port}`;
/** Servers with no downloads at all, and with only Linux (DEB) and Windows ARM builds (see webServer). */
export const emptyServer = { url: `http://127.0.0.1:${emptyPort}`, dataDir: `${dataDir}-empty` };
export const linuxOnlyServer = { url: `http://127.0.0.1:${linuxPort}`, dataDir: `${dataDir}-linux` };
/**
 * Two instances on one PostgreSQL for the live-fleet test (apps/web/e2e/live/): that spec starts
 * them itself, with a PostgreSQL of their own (apps/web/e2e/live/live-servers.ts).
 */
export const liveServers = {
  a: { url: `http://127.0.0.1:${liveAPort}`, dataDir: `${dataDir}-live-a` },
  b: { url: `http://127.0.0.1:${liveBPort}`, dataDir: `${dataDir}-live-b` },
};
/**
 * A server whose PUBLIC_URL is http://localhost:PORT, listening on 127.0.0.1 like the others: visited
 * at 127.0.0.1 it redirects to its one address (apps/web/e2e/commerce/canonical-address.spec.ts).
 */
export const canonicalServer = { url: `http://localhost:${canonicalPort}`, dataDir: `${dataDir}-canonical` };
/**
 * A server whose artifacts are in a bucket at `s3Port`, where nothing listens: storage down
 * (apps/web/e2e/robots/downloads-storage-down.spec.ts). Its one build is recorded on disk first.
 */
export const noStorageServer = {
  url: `http://127.0.0.1:${noStoragePort}`,
  dataDir: `${dataDir}-no-storage`,
  s3Port: deadStoragePort,
};
/**
 * The back office's server (apps/web/e2e/admin/). Before it starts, the command line makes a support
 * and an admin staff member (`staff:add`: the command line cannot open the embedded database while a
 * server holds it) and keeps what it printed, their enrolment links, in `staffFile` for the spec.
 * PUBLIC_URL is localhost, as WebAuthn takes no IP address, so the links open as printed. Its port is
 * one more free one, chosen once like the others (the eight of E2E_PORT are all taken).
 */
process.env.E2E_ADMIN_PORT ??= String(await freePort());
const adminPort = Number(process.env.E2E_ADMIN_PORT);
export const adminServer = {
  url: `http://localhost:${adminPort}`,
  dataDir: `${dataDir}-admin`,
  staffFile: `${dataDir}-admin-staff.txt`,
  support: 'e2e-support@example.com',
  admin: 'e2e-admin@example.com',
  /** the inbox and customer spec's own (apps/web/e2e/admin/admin-support.spec.ts): an enrolment link is single-use */
  inboxSupport: 'e2e-inbox-support@example.com',
  finance: 'e2e-finance@example.com',
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
      executablePath: chromiumPath(),
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
    server({ port: emptyPort, dataDir: `${dataDir}-empty`, seedDemo: false }),
    server({
      port: linuxPort,
      dataDir: `${dataDir}-linux`,
      seedDemo: false,
      before: [
        `node ${serverDir}/cli.js artifacts:add apps/web/e2e/robots/robot-hub-linux.deb --os linux --arch deb --version 2.0.1.0`,
        `node ${serverDir}/cli.js artifacts:add apps/web/e2e/robots/robot-hub-linux.deb --os windows --arch arm64 --version 2.0.1.0`,
      ].join(' && '),
    }),
    server({ port: canonicalPort, dataDir: canonicalServer.dataDir, seedDemo: false, publicUrl: canonicalServer.url }),
    server({
      port: noStoragePort,
      dataDir: noStorageServer.dataDir,
      seedDemo: false,
      before: `node ${serverDir}/cli.js artifacts:add apps/web/e2e/robots/robot-hub-linux.deb --os linux --arch deb --version 2.0.1.0`,
      storage: {
        S3_BUCKET: 'portal-artifacts',
        S3_ENDPOINT: `http://127.0.0.1:${noStorageServer.s3Port}`,
        S3_FORCE_PATH_STYLE: 'true',
        S3_ACCESS_KEY_ID: 'E2EACCESSKEY',
        S3_SECRET_ACCESS_KEY: 'e2e-secret-access-key',
      },
    }),
    server({
      port: adminPort,
      dataDir: adminServer.dataDir,
      seedDemo: false,
      publicUrl: adminServer.url,
      before: [
        `node ${serverDir}/cli.js staff:add ${adminServer.support} --role support > ${adminServer.staffFile}`,
        `node ${serverDir}/cli.js staff:add ${adminServer.admin} --role admin >> ${adminServer.staffFile}`,
        `node ${serverDir}/cli.js staff:add ${adminServer.inboxSupport} --role support >> ${adminServer.staffFile}`,
        `node ${serverDir}/cli.js staff:add ${adminServer.finance} --role finance >> ${adminServer.staffFile}`,
      ].join(' && '),
    }),
  ],
});

/** The environment of an end-to-end server (its port, data folder, and the limits the tests need lifted). */
export function serverEnv(opts: {
  port: number;
  dataDir: string;
  seedDemo: boolean;
  publicUrl?: string;
}): Record<string, string> {
  const url = opts.publicUrl ?? `http://127.0.0.1:${opts.port}`;
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

function server(opts: {
  port: number;
  dataDir: string;
  seedDemo: boolean;
  publicUrl?: string;
  before?: string;
  /** S3 variables of the server alone (`before` stores on disk) */
  storage?: Record<string, string>;
}) {
  // Probed at 127.0.0.1 whatever PUBLIC_URL says: /readyz answers any host.
  const url = `http://127.0.0.1:${opts.port}`;
  const env = serverEnv(opts);
  const storage = Object.entries(opts.storage ?? {}).map(([name, value]) => `${name}=${value} `);
  return {
    command: [`rm -rf ${opts.dataDir}`, opts.before, `${storage.join('')}node ${serverDir}/server.js`]
      .filter(Boolean)
      .join(' && '),
    url: `${url}/readyz`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
    env,
  };
}

// Lighthouse 12 (mobile preset, simulated throttling, empty HTTP cache) on the sign-in page and on the
// dashboard signed in as the demo account, against the production build of the portal; the median
// of `runs` runs per page (issue 13, deliverable 3). Nothing passes or fails on these figures.
//   npx tsx bench/lighthouse.ts [--runs N] [--no-build] [--reports DIR] [--against WEB_DIST] [--lantern]
// builds (unless --no-build), starts the built server on a free loopback port and prints the medians;
// --reports writes each run's whole Lighthouse report (JSON: the LCP element and its phases, long
// tasks, main-thread breakdown, render-blocking resources) to DIR. --lantern prints, for each run,
// how Lighthouse's model (Lantern) simulated the LCP: every request and main-thread task it counted,
// with its simulated start and end (how to read it: docs/performance.md, decision 047's section).
// --against measures another web build (a copy of an earlier apps/web/dist) A/B with this one: two servers
// of the same server build, runs alternating between them, so both see the same machine load (TBT follows
// the CPU Lighthouse sees).
// As a module, `runLighthouse({ baseUrl, pages, runs })` measures a portal already running.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import lighthouse from 'lighthouse';
// Lighthouse's own instance of its network and CPU model (a module it ships; no exports map).
import * as Lantern from 'lighthouse/core/lib/lantern/lantern.js';
import puppeteer, { type Browser } from 'puppeteer-core';
import { recordedCompression } from '../apps/web/vite-plugins.ts';
import { median } from './lib/stats.ts';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const DEMO = { email: 'demo@robot-portal.local', password: 'Demo-Robot-2026!' };

export interface PageRun {
  score: number;
  /** milliseconds, except cls */
  fcp: number;
  lcp: number;
  tbt: number;
  si: number;
  cls: number;
  /** bytes over the wire (Lighthouse's total-byte-weight) */
  bytes: number;
}

export interface PageResult extends PageRun {
  page: string;
  runs: PageRun[];
}

export interface LighthouseOptions {
  baseUrl: string;
  /** paths, measured in this order; from the first that starts with /dashboard on, signed in as `account` */
  pages?: string[];
  runs?: number;
  account?: { email: string; password: string };
  chromePath?: string;
  /** a folder to write each run's Lighthouse report to (JSON) */
  reportsDir?: string;
  /** print each run's simulated LCP (`--lantern`) */
  lantern?: boolean;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Signs in through the form, as a person does; the session stays in the browser's storage. */
async function signIn(browser: Browser, baseUrl: string, account: { email: string; password: string }) {
  const page = await browser.newPage();
  // The first-visit tour is not the dashboard a returning customer sees.
  await page.evaluateOnNewDocument(() => localStorage.setItem('hasCompletedFirstVisit', 'true'));
  await page.goto(`${baseUrl}/auth/login`);
  await page.locator('#login-email').fill(account.email);
  await page.locator('#login-password').fill(account.password);
  await Promise.all([
    page.waitForNavigation({ waitUntil: 'networkidle0' }).catch(() => undefined),
    page.click('button[type=submit]'),
  ]);
  await page.waitForFunction(() => location.pathname === '/dashboard');
  await page.close();
}

/** What the simulator records of one node of its graph (Lantern's types are not exported). */
interface SimulatedNode {
  type: string;
  request?: { url: string; priority: string; resourceType?: string };
  childEvents?: unknown[];
  duration?: number;
}

/**
 * Lighthouse's LCP is the mean of two simulations (optimistic, pessimistic) of the requests and
 * main-thread tasks that happened before the LCP observed in the unthrottled load, each ending
 * when its last node ends, low-priority images aside. Printed: the optimistic one, node by node.
 */
function printLanternLcp(page: string): void {
  const timings = Lantern.Simulation.Simulator.allNodeTimings as Map<
    string,
    Map<SimulatedNode, { startTime: number; endTime: number }>
  >;
  const graph = timings.get('optimisticLargestContentfulPaint');
  if (!graph) return;
  const lowImage = (n: SimulatedNode) =>
    n.request?.resourceType === 'Image' && (n.request.priority === 'Low' || n.request.priority === 'VeryLow');
  const rows = [...graph].filter(([node]) => !lowImage(node)).sort((a, b) => a[1].endTime - b[1].endTime);
  const fetches = rows.filter(([n]) => n.request?.resourceType === 'Fetch' || n.request?.resourceType === 'XHR');
  console.log(
    `${page}: simulated LCP (optimistic) ${Math.round(rows.at(-1)?.[1].endTime ?? 0)} ms, ${fetches.length} API requests counted`,
  );
  for (const [node, t] of rows) {
    const what = node.request
      ? `${node.request.priority} ${node.request.resourceType ?? ''} ${new URL(node.request.url).pathname}`
      : `main thread, ${((node.duration ?? 0) / 1000).toFixed(1)} ms observed`;
    console.log(
      `  ${String(Math.round(t.startTime)).padStart(6)} -> ${String(Math.round(t.endTime)).padStart(6)}  ${what}`,
    );
  }
}

async function onePage(
  browser: Browser,
  port: number,
  url: string,
  report?: string,
  lantern = false,
): Promise<PageRun> {
  // An empty HTTP cache for each run, while the session in local storage stays (Lighthouse's own
  // storage reset would also sign the dashboard out).
  const page = await browser.newPage();
  const cdp = await page.createCDPSession();
  await cdp.send('Network.clearBrowserCache');
  await page.close();
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance'],
    disableStorageReset: true,
  });
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  const { lhr } = result;
  if (report) writeFileSync(report, JSON.stringify(lhr));
  const landed = new URL(lhr.finalDisplayedUrl).pathname;
  if (landed !== new URL(url).pathname) throw new Error(`Lighthouse measured ${landed}, not ${url}: signed out?`);
  if (lantern) printLanternLcp(landed);
  const audit = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  return {
    score: lhr.categories.performance?.score ?? 0,
    fcp: audit('first-contentful-paint'),
    lcp: audit('largest-contentful-paint'),
    tbt: audit('total-blocking-time'),
    si: audit('speed-index'),
    cls: audit('cumulative-layout-shift'),
    bytes: audit('total-byte-weight'),
  };
}

function medians(page: string, runs: PageRun[]): PageResult {
  const m = (k: keyof PageRun) => median(runs.map((r) => r[k]));
  return {
    page,
    runs,
    score: m('score'),
    fcp: m('fcp'),
    lcp: m('lcp'),
    tbt: m('tbt'),
    si: m('si'),
    cls: m('cls'),
    bytes: m('bytes'),
  };
}

/** Results of several measurements of the same pages, as one median per page. */
function mergeRuns(measurements: PageResult[][]): PageResult[] {
  const pages = measurements[0]?.map((r) => r.page) ?? [];
  return pages.map((page) =>
    medians(
      page,
      measurements.flatMap((m) => m.find((r) => r.page === page)?.runs ?? []),
    ),
  );
}

/** The median of `runs` Lighthouse runs for each page (score and every metric taken separately). */
export async function runLighthouse(options: LighthouseOptions): Promise<PageResult[]> {
  const { baseUrl, pages = ['/auth/login', '/dashboard'], runs = 3, account = DEMO } = options;
  const port = await freePort();
  const browser = await puppeteer.launch({
    executablePath: options.chromePath ?? CHROMIUM,
    headless: true,
    args: [`--remote-debugging-port=${port}`, '--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
  try {
    const results: PageResult[] = [];
    let signedIn = false;
    // Pages are measured in the order given; the sign-in happens before the first signed-in page
    // (a signed-in browser is sent from /auth/login to the dashboard).
    for (const path of pages) {
      if (path.startsWith('/dashboard') && !signedIn) {
        await signIn(browser, baseUrl, account);
        signedIn = true;
      }
      const all: PageRun[] = [];
      for (let i = 0, failed = 0; i < runs; ) {
        const report = options.reportsDir
          ? join(options.reportsDir, `${path.slice(1).replaceAll('/', '-')}-${i + 1 + failed}.json`)
          : undefined;
        const run = await onePage(browser, port, `${baseUrl}${path}`, report, options.lantern);
        // A run Lighthouse could not finish (no paint recorded: score 0, metrics NaN) is run again,
        // twice at most per page; it is not a figure of the page.
        if (Number.isNaN(run.lcp) && failed < 2) {
          failed += 1;
          continue;
        }
        all.push(run);
        i += 1;
      }
      results.push(medians(path, all));
    }
    return results;
  } finally {
    await browser.close();
  }
}

export function formatLighthouse(results: PageResult[]): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  return results
    .map(
      (r) =>
        `${r.page.padEnd(12)} score ${r.score.toFixed(2)}  FCP ${s(r.fcp)}  LCP ${s(r.lcp)}  TBT ${Math.round(r.tbt)} ms  ` +
        `SI ${s(r.si)}  CLS ${r.cls.toFixed(3)}  ${(r.bytes / 1024).toFixed(0)} KiB  (scores ${r.runs.map((x) => x.score.toFixed(2)).join(', ')})`,
    )
    .join('\n');
}

/**
 * Starts the built portal (npm start without its build step) on a free loopback port, with a fresh
 * data folder; `webDist` serves another web build.
 */
export async function startPortal(webDist?: string): Promise<{ baseUrl: string; stop: () => void }> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-lighthouse-'));
  const root = fileURLToPath(new URL('..', import.meta.url));
  const server = spawn('node', ['apps/server/dist/server.js'], {
    cwd: root,
    env: {
      ...process.env,
      // As `npm start` runs it out of the box: the production build of the web app, served by a
      // server in its default mode, which seeds the demo account (a production server never does).
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: baseUrl,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'true',
      ...(webDist ? { WEB_DIST: webDist } : {}),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const stop = () => {
    server.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  };
  for (let i = 0; i < 150; i++) {
    try {
      if ((await fetch(`${baseUrl}/readyz`)).ok) return { baseUrl, stop };
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  stop();
  throw new Error('the portal did not start');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const runsArg = process.argv.indexOf('--runs');
  const runs = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 3;
  const reportsArg = process.argv.indexOf('--reports');
  const reportsDir = reportsArg > 0 ? process.argv[reportsArg + 1] : undefined;
  if (reportsDir) mkdirSync(reportsDir, { recursive: true });
  const againstArg = process.argv.indexOf('--against');
  const against = againstArg > 0 ? process.argv[againstArg + 1] : undefined;
  const lantern = process.argv.includes('--lantern');
  if (!process.argv.includes('--no-build')) {
    const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
  // Lighthouse weighs the bytes sent: `npm start`'s fast copies (docs/decisions/054) are not what
  // production sends. (A copy made before builds recorded their compression passes as --against.)
  const webDist = join(import.meta.dirname, '../apps/web/dist');
  const notRelease = [
    ...(recordedCompression(webDist) === 'release' ? [] : [webDist]),
    ...(against && recordedCompression(against) === 'fast' ? [against] : []),
  ];
  if (notRelease.length > 0) {
    console.error(
      `${notRelease.join(' and ')}: not a release build (npm start's fast copies?): run npm run build first`,
    );
    process.exit(1);
  }
  if (against) {
    // A/B: one run per page and build in turn, `runs` times; the medians per build.
    const builds = { this: await startPortal(), against: await startPortal(against) };
    try {
      const all: Record<keyof typeof builds, PageResult[][]> = { this: [], against: [] };
      for (let i = 0; i < runs; i++)
        for (const name of ['against', 'this'] as const) {
          const dir = reportsDir ? join(reportsDir, `${name}-${i + 1}`) : undefined;
          if (dir) mkdirSync(dir, { recursive: true });
          all[name].push(await runLighthouse({ baseUrl: builds[name].baseUrl, runs: 1, reportsDir: dir, lantern }));
        }
      for (const name of ['against', 'this'] as const) {
        console.log(
          `${name === 'this' ? 'this build' : against}: Lighthouse 12, mobile preset, median of ${runs} runs, A/B`,
        );
        console.log(formatLighthouse(mergeRuns(all[name])));
      }
    } finally {
      builds.this.stop();
      builds.against.stop();
    }
  } else {
    const portal = await startPortal();
    try {
      console.log(`Lighthouse 12, mobile preset, median of ${runs} runs, ${portal.baseUrl}`);
      console.log(formatLighthouse(await runLighthouse({ baseUrl: portal.baseUrl, runs, reportsDir, lantern })));
    } finally {
      portal.stop();
    }
  }
}

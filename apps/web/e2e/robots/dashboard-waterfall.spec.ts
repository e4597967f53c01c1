import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page, Request, Route } from '@playwright/test';
import { type Manifest, PAGES, pageScripts } from '../../../../bench/bundle-size';
import { expect, signInByApi, test } from '../fixtures';
import { DEMO, grid } from './robots-helpers';

/**
 * Issue 13: after sign-in the dashboard needs at most four sequential round trips (the spec's CSRF
 * GET before each POST, and GetLicences before GetRobots), every independent call in parallel; it
 * needs three, since GetRobots' own GETs go out beside GetLicences' (decision 046).
 * Counted, not timed, in waves: the test's route holds every request the page waits on (calls,
 * scripts, styles, documents) until the page's renderer is idle and no new request has come in
 * three idle checks in a row, then sends the whole wave, unchanged, to the real server and hands
 * the page all its answers at once. Every call the page could start without an answer has been started by then, so
 * a request in wave n needed an answer of wave n - 1: the wave is the round trip it waits for.
 * (Counting by start and end times instead failed on a loaded machine: one of two parallel calls
 * answered late made the other's next call look like a third step.)
 *
 * Also: the scripts a browser loads for a page are exactly those bench/bundle-size.ts computes from
 * the build's manifest, so the page budgets `npm test` checks are the bytes a browser really fetches.
 */

const webDist = process.env.E2E_BUILD_DIR
  ? `${process.env.E2E_BUILD_DIR}/web`
  : fileURLToPath(new URL('../../dist', import.meta.url));

/** What the page waits on to show its data. Images come after the cards they are in. */
const isData = (request: Request) =>
  ['fetch', 'xhr', 'script', 'stylesheet', 'document'].includes(request.resourceType());

function labelOf(request: Request): string {
  const url = new URL(request.url());
  const action = (request.postDataJSON() as { action?: string } | null)?.action;
  return `${request.method()} ${url.pathname}${action ? ` ${action}` : ''}`;
}

/** The renderer has no task left to run. */
const idle = (page: Page) =>
  page.evaluate(() => new Promise<void>((resolve) => requestIdleCallback(() => resolve()))).catch(() => undefined);

/**
 * Routes the page's data requests in waves (see above) and answers each request's wave. Other
 * requests (images, the event stream, which never ends) go on at once.
 */
async function inWaves(page: Page) {
  const waveOf = new Map<Request, number>();
  const order: Request[] = [];
  let held: Route[] = [];
  let wave = 0;
  let pumping = false;
  const pump = async () => {
    pumping = true;
    while (held.length > 0) {
      // Quiet: the renderer idle with no new request held, three times in a row (a request the
      // page has just started may reach the route a moment after the renderer reports idle; each
      // check is another round trip through the browser, which delivers it).
      for (let quiet = 0; quiet < 3; ) {
        const before = held.length;
        await idle(page);
        quiet = held.length === before ? quiet + 1 : 0;
      }
      const routes = held;
      held = [];
      wave += 1;
      for (const route of routes) waveOf.set(route.request(), wave);
      const answers = await Promise.all(routes.map((route) => route.fetch().catch(() => undefined)));
      await Promise.all(
        routes.map((route, i) => {
          const response = answers[i];
          return (response ? route.fulfill({ response }) : route.abort()).catch(() => undefined);
        }),
      );
    }
    pumping = false;
  };
  page.on('request', (request) => order.push(request));
  await page.route('**/*', async (route) => {
    if (!isData(route.request())) return route.continue();
    held.push(route);
    if (!pumping) void pump();
  });
  return { waveOf, order };
}

test('after sign-in the dashboard needs three sequential round trips (the issue allows four)', async ({
  page,
  baseURL,
}) => {
  // The onboarding tour is not part of the dashboard's data: mark the first visit done.
  await page.context().setStorageState({
    cookies: [],
    origins: [{ origin: baseURL as string, localStorage: [{ name: 'hasCompletedFirstVisit', value: 'true' }] }],
  });
  await page.goto('/auth/login');
  const { waveOf, order } = await inWaves(page);
  await page.getByLabel('Email', { exact: true }).fill(DEMO.email);
  await page.getByLabel('Password', { exact: true }).fill(DEMO.password);
  const signedIn = page.waitForResponse(
    (res) => res.request().method() === 'POST' && labelOf(res.request()).endsWith(' login'),
  );
  await page.getByRole('button', { name: 'Sign in to Portal' }).click();
  const login = (await signedIn).request();

  await page.waitForURL('**/dashboard');
  // The dashboard is done when its robots and its dial time are shown.
  await expect(grid(page, 'MY ROBOTS').getByRole('heading', { level: 2 })).toHaveText('MY ROBOTS (4)');
  await expect(grid(page, 'SHARED ROBOTS').getByTestId('robot-card')).toHaveCount(1);
  await expect(page.getByTestId('robot-card').first().getByRole('img')).toBeVisible();

  // Round trips after the sign-in's answer, up to the last GetRobots, the last call the screen
  // waits for. Later requests (the cards' images, the robot pages' code preloaded by their links)
  // are not its data. Other requests of the window are printed without a number.
  const signedInWave = waveOf.get(login) as number;
  const after = order.slice(order.indexOf(login) + 1);
  const depthOf = (request: Request) => (waveOf.get(request) ?? 0) - signedInWave;
  const lastCall = after.findLastIndex((r) => labelOf(r) === 'POST /api/robots GetRobots');
  const window = after.slice(0, lastCall + 1).filter((r) => !waveOf.has(r) || depthOf(r) > 0);
  const data = window.filter((r) => waveOf.has(r));
  const lines = window
    .map((r) => ({ r, d: waveOf.has(r) ? depthOf(r) : 0 }))
    .sort((a, b) => a.d - b.d)
    .map(({ r, d }) => (d ? `${'  '.repeat(d - 1)}${d} ${labelOf(r)}` : `  - ${labelOf(r)} (${r.resourceType()})`));
  console.log(`dashboard after sign-in, ${window.length} requests, round trips numbered:\n${lines.join('\n')}`);

  expect(data.map(labelOf)).toEqual(
    expect.arrayContaining(['POST /api/license GetLicences', 'POST /api/robots GetRobots']),
  );
  const deepest = Math.max(...data.map(depthOf));
  expect(deepest, lines.join('\n')).toBeLessThanOrEqual(3);
  // Each POST waits for its own CSRF GET only, and GetRobots for GetLicences: nothing else is serial.
  // GetRobots' own GETs go out beside GetLicences' (decision 046), so GetRobots is one step after it.
  for (const r of data.filter((d) => labelOf(d) === 'POST /api/robots GetRobots'))
    expect(depthOf(r)).toBeLessThanOrEqual(3);
  for (const r of data.filter((d) => d.method() === 'POST' && !labelOf(d).endsWith('GetRobots')))
    expect(depthOf(r), labelOf(r)).toBeLessThanOrEqual(2);
});

async function scriptsLoaded(page: Page, path: string, ready: () => Promise<void>): Promise<string[]> {
  const scripts = new Set<string>();
  page.on('requestfinished', (request) => {
    const url = new URL(request.url());
    if (url.pathname.endsWith('.js')) scripts.add(url.pathname.slice(1));
  });
  await page.goto(path);
  await ready();
  return [...scripts].sort();
}

const manifest = () => JSON.parse(readFileSync(`${webDist}/.vite/manifest.json`, 'utf8')) as Manifest;

test.describe('the scripts a page loads are the ones its budget counts', () => {
  test('/auth/login', async ({ page }) => {
    const loaded = await scriptsLoaded(page, '/auth/login', async () => {
      await expect(page.getByRole('button', { name: 'Sign in to Portal' })).toBeVisible();
      // The page is prerendered (docs/decisions/038): it is the app's once hydrated, no longer inert.
      await expect(page.locator('#app')).not.toHaveAttribute('inert');
    });
    expect(loaded).toEqual(pageScripts(manifest(), PAGES['/auth/login'] as (typeof PAGES)[string]).sort());
  });

  test('/dashboard, signed in', async ({ page }) => {
    await signInByApi(page, DEMO.email, DEMO.password);
    const loaded = await scriptsLoaded(page, '/dashboard', async () => {
      await expect(grid(page, 'MY ROBOTS').getByRole('heading', { level: 2 })).toHaveText('MY ROBOTS (4)');
    });
    expect(loaded).toEqual(pageScripts(manifest(), PAGES['/dashboard'] as (typeof PAGES)[string]).sort());
  });
});

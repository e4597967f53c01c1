// Prints the gzip size of the JavaScript a browser loads for /auth/login and for /dashboard,
// against the real built server, and the ratio of each to the shared entry chunk (the baseline
// measured in the same run). Run after `npm run build`: npx tsx bench/bundle-size.ts
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { chromium, type Page } from '@playwright/test';

const port = 4400;
const base = `http://127.0.0.1:${port}`;
const dataDir = `/tmp/portal-bench-${process.pid}`;

async function waitReady() {
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`${base}/readyz`)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('server did not start');
}

async function jsLoaded(page: Page, path: string, before?: (p: Page) => Promise<void>) {
  const sizes = new Map<string, { raw: number; gzip: number }>();
  const onResponse = async (res: import('@playwright/test').Response) => {
    const url = res.url();
    if (!url.endsWith('.js') || !url.startsWith(base)) return;
    const body = await res.body().catch(() => undefined);
    if (body) sizes.set(url.slice(base.length), { raw: body.length, gzip: gzipSync(body, { level: 9 }).length });
  };
  page.on('response', onResponse);
  if (before) await before(page);
  await page.goto(`${base}${path}`, { waitUntil: 'load' });
  // Lazy route chunks load after the first render; the dashboard polls, so there is no network idle.
  await page.waitForTimeout(2500);
  page.off('response', onResponse);
  return sizes;
}

const server = spawn('node', ['apps/server/dist/server.js'], {
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: base,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'test',
  },
  stdio: 'ignore',
});
try {
  await waitReady();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  const context = await browser.newContext();
  const page = await context.newPage();
  const login = await jsLoaded(page, '/auth/login');
  // Sign in as the demo account so /dashboard renders for real.
  await page.getByLabel('Email', { exact: true }).fill('demo@robot-portal.local');
  await page.getByLabel('Password', { exact: true }).fill('Demo-Robot-2026!');
  await page.getByRole('button', { name: 'Sign in to Portal' }).click();
  await page.waitForURL('**/dashboard');
  const fresh = await browser.newContext({ storageState: await context.storageState() });
  const dashboard = await jsLoaded(await fresh.newPage(), '/dashboard');
  await browser.close();

  const total = (m: Map<string, { gzip: number }>) => [...m.values()].reduce((s, v) => s + v.gzip, 0);
  const entry = [...login.entries()].find(([url]) => /\/assets\/index-[\w-]+\.js$/.test(url))?.[1].gzip ?? 1;
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
  console.log(`baseline: shared entry chunk ${kb(entry)} gzip`);
  console.log(
    `/auth/login: ${login.size} scripts, ${kb(total(login))} gzip, ${(total(login) / entry).toFixed(2)}x baseline`,
  );
  console.log(
    `/dashboard: ${dashboard.size} scripts, ${kb(total(dashboard))} gzip, ${(total(dashboard) / entry).toFixed(2)}x baseline`,
  );
} finally {
  server.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
}

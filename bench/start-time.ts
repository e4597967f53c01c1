// How long `npm start` takes to answer /healthz (docs/decisions/054): cold (no build stamps, no
// builds, a fresh data folder, as after `npm install` on a fresh clone) and warm (started again,
// nothing changed), beside the baseline of what `npm start` ran before: the release build
// (`npm run build`), then the server. Each in a throwaway copy of this checkout (its dependencies
// hard-linked), on a free loopback port, so the checkout's own builds and data are left alone.
//   npx tsx bench/start-time.ts        (~2 min on 2 cores; prints the times, asserts nothing;
//                                       KEEP_COPY=1 keeps the copy, every start's output is in <copy>.log)
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, openSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { freePort } from '@portal/testing/net';

const checkout = join(import.meta.dirname, '..');
/** What a fresh clone has not: builds, data, test output, dependencies (linked below) and git's own folder. */
const LEFT_OUT = new Set([
  '.git',
  'data',
  '.e2e-builds',
  'test-results',
  '.test-output',
  'playwright-report',
  'screenshots',
  'apps/web/dist',
  'apps/web/.prerender',
  'apps/server/dist',
]);

/**
 * The checkout's files as they are now (committed or not), without what LEFT_OUT names, and its
 * installed dependencies as hard links: a copy in seconds that builds like the checkout. The builds
 * write new files into node_modules (Vite's bundled config), never into one that is there.
 */
function throwawayCopy(): string {
  const copy = mkdtempSync(join(tmpdir(), 'start-time-'));
  cpSync(checkout, copy, {
    recursive: true,
    filter: (source) => !LEFT_OUT.has(relative(checkout, source)) && !source.endsWith('/node_modules'),
  });
  const installs = [
    '.',
    ...['apps', 'packages'].flatMap((dir) => readdirSync(join(checkout, dir)).map((d) => `${dir}/${d}`)),
  ];
  for (const dir of installs) {
    const modules = join(checkout, dir, 'node_modules');
    if (existsSync(modules)) execFileSync('cp', ['-al', modules, join(copy, relative(checkout, modules))]);
  }
  for (const stale of ['node_modules/.vite', 'node_modules/.vite-temp', 'apps/web/node_modules/.vite-temp'])
    rmSync(join(copy, stale), { recursive: true, force: true });
  return copy;
}

interface Started {
  seconds: number;
  stop(): Promise<void>;
}

/** Runs `command` in the copy until /healthz answers; its output goes to `log`. */
async function timeToHealthz(copy: string, command: string, dataDir: string, log: string): Promise<Started> {
  const port = await freePort();
  const began = performance.now();
  const out = openSync(log, 'a');
  // A process group of its own: stopping it stops npm, the shell and the server together.
  const child: ChildProcess = spawn('sh', ['-c', command], {
    cwd: copy,
    detached: true,
    stdio: ['ignore', out, out],
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${command} exited with ${child.exitCode} before answering (${log})`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) break;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  const seconds = (performance.now() - began) / 1000;
  return {
    seconds,
    async stop() {
      process.kill(-(child.pid as number), 'SIGINT');
      await exited;
    },
  };
}

const copy = throwawayCopy();
const log = `${copy}.log`;
console.log(`throwaway copy: ${copy} (output of every start: ${log})`);
try {
  const data = (name: string) => join(copy, `data-${name}`);
  const cases = [
    // Cold first: it pays for whatever the file cache has not read yet, so its figure is not flattered.
    { name: 'npm start, cold (no builds or stamps, fresh data folder)', command: 'npm start', dataDir: data('start') },
    { name: 'npm start, warm (nothing changed, same data folder)', command: 'npm start', dataDir: data('start') },
    {
      name: 'baseline: npm run build, then the server (npm start before decision 054; fresh data folder)',
      command: 'npm run build && node apps/server/dist/server.js',
      dataDir: data('release'),
    },
  ];
  const seconds: number[] = [];
  for (const { name, command, dataDir } of cases) {
    const started = await timeToHealthz(copy, command, dataDir, log);
    await started.stop();
    seconds.push(started.seconds);
    console.log(`${name}: ${started.seconds.toFixed(1)} s to /healthz`);
  }
  const [cold = 0, warm = 0, baseline = 1] = seconds;
  console.log(
    `\nnpm start: cold ${cold.toFixed(1)} s (${(cold / baseline).toFixed(2)}x the baseline), warm ${warm.toFixed(1)} s (${(warm / baseline).toFixed(2)}x); baseline ${baseline.toFixed(1)} s`,
  );
} finally {
  // KEEP_COPY=1 keeps the copy to look into.
  if (!process.env.KEEP_COPY) rmSync(copy, { recursive: true, force: true });
}

// `npm run dev`: the server from its TypeScript sources, restarted when they change (tsx watch), and
// the Vite dev server with hot reload, which forwards /api and /sandbox to it. Prints the address to
// open and the demo account; Ctrl-C stops both (docs/decisions/054).
//   PORT (3000): the server's port; WEB_DEV_PORT (5173): the page's; DATA_DIR (data/dev): the server's
//   data, apart from `npm start`'s so the two never open one database.
import './check-node.mjs';
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createServer } from 'vite';
import { developmentCsp } from './dev-csp.ts';

const root = join(import.meta.dirname, '..');
const port = Number(process.env.PORT ?? 3000);
const webPort = Number(process.env.WEB_DEV_PORT ?? 5173);
const webUrl = `http://localhost:${webPort}`;
// apps/web/vite.config.ts reads both for its port and where it forwards the API.
process.env.PORT = String(port);
process.env.WEB_DEV_PORT = String(webPort);

/** The server's log lines that name the demo account (seed.ts), to print again beside the address. */
const demoLines: string[] = [];
const server: ChildProcess = spawn(
  process.execPath,
  [createRequire(import.meta.url).resolve('tsx/cli'), 'watch', '--clear-screen=false', 'apps/server/src/server.ts'],
  {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      DATA_DIR: process.env.DATA_DIR ?? 'data/dev',
      // The browser's origin is the Vite server's: the API checks Host and Origin against it.
      PUBLIC_URL: process.env.PUBLIC_URL ?? webUrl,
    },
  },
);
createInterface({ input: server.stdout as NodeJS.ReadableStream }).on('line', (line) => {
  console.log(line);
  try {
    const { msg } = JSON.parse(line) as { msg?: unknown };
    if (typeof msg === 'string' && msg.startsWith('demo account')) demoLines.push(msg);
  } catch {}
});
const serverExited = new Promise<void>((resolve) => server.once('exit', () => resolve()));

const vite = await createServer({
  root: join(root, 'apps/web'),
  configFile: join(root, 'apps/web/vite.config.ts'),
  plugins: [developmentCsp(`localhost:${webPort}`)],
});
await vite.listen();

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  server.kill('SIGINT');
  await Promise.all([vite.close(), serverExited]);
  process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());

// The address is worth printing once the server answers: until then the page's calls would fail.
for (;;) {
  if (stopping) break;
  try {
    if ((await fetch(`http://localhost:${port}/healthz`)).ok) break;
  } catch {}
  await new Promise((r) => setTimeout(r, 250));
}
if (!stopping)
  console.log(
    [
      '',
      `Robot Portal, development: open ${webUrl}/`,
      ...demoLines.map((line) => `  ${line}`),
      `  The server (port ${port}) restarts when its sources change; the page reloads what you edit. Ctrl-C stops both.`,
      '',
    ].join('\n'),
  );

// Prerenders the public pages' first view after `vite build` (docs/decisions/038): builds
// src/prerender.tsx for Node, renders each page of its PRERENDERED_PAGES signed out, and writes
// dist/.prerendered/<name>.html (index.html with the page's markup in #app) and pages.json, which
// tells the server which file answers which address. The server adds the deployment's configuration
// and compresses each file once at start, as it does index.html.
//   npx tsx prerender.ts        (run by `npm run build`, after `vite build`)
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'vite';
import type { PrerenderedPage } from './src/prerender';
import { SIGNED_IN_START_GROUP } from './vite-plugins';

const here = fileURLToPath(new URL('.', import.meta.url));
const dist = join(here, 'dist');
const bundleDir = join(here, '.prerender');
const outDir = join(dist, '.prerendered');

/** What preloads.json lists: the scripts that addresses under a prefix start with (modulepreload). */
export interface PreloadEntry {
  prefix: string;
  scripts: string[];
}

/** What pages.json lists: the file for each path and query, and the variant a cookie selects. */
export interface PrerenderedEntry {
  path: string;
  queries: string[];
  file: string;
  variants: { cookie: string; file: string }[];
}

await build({
  root: here,
  configFile: join(here, 'vite.config.ts'),
  logLevel: 'warn',
  build: { ssr: 'src/prerender.tsx' },
  // React's and the router's production builds, as in the browser.
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
});
// The router's browser build registers itself on `self`, which Node does not have.
(globalThis as { self?: unknown }).self ??= globalThis;
const bundle = (await import(pathToFileURL(join(bundleDir, 'prerender.js')).href)) as {
  prerenderPage(url: string, cookies: string): Promise<string>;
  PRERENDERED_PAGES: PrerenderedPage[];
};

const template = readFileSync(join(dist, 'index.html'), 'utf8');
// #app holds the loading indicator (index.html); a prerendered page replaces it.
const APP = /<div id="app">[\s\S]*?<\/div>\s*<\/div>\s*<\/div>/;
if (!APP.test(template)) throw new Error('dist/index.html has no <div id="app"> to prerender into');

const HOISTED = /^(<title>[^<]*<\/title>|<link [^>]*\/>|<meta [^>]*\/>)/;

/** index.html with the page's markup in #app, and its own title instead of the product name. */
async function page(url: string, cookies: string): Promise<string> {
  const { href, html } = JSON.parse(await bundle.prerenderPage(url, cookies)) as { href: string; html: string };
  if (href !== url) throw new Error(`prerendering ${url} ended at ${href}`);
  // React writes what belongs in the head (the route's <title>, preloads of its images) before the
  // markup: the title replaces the product name, the rest goes at the end of the head.
  let body = html;
  let title: string | undefined;
  const head: string[] = [];
  for (let m = HOISTED.exec(body); m; m = HOISTED.exec(body)) {
    if (m[0].startsWith('<title')) title = m[0];
    else head.push(m[0]);
    body = body.slice(m[0].length);
  }
  // Inert until the app has hydrated it: a press or a keystroke on a page that is not yet live would
  // be lost (main.tsx lifts it).
  let doc = template.replace(APP, () => `<div id="app" data-prerendered inert>${body}</div>`);
  // The page paints from the HTML: its script makes it interactive but does not draw it, so the
  // stylesheet (which does block the first paint) goes first.
  const ENTRY = '<script type="module" crossorigin';
  if (!doc.includes(ENTRY)) throw new Error(`dist/index.html has no ${ENTRY}`);
  doc = doc.replace(ENTRY, '<script type="module" fetchpriority="low" crossorigin');
  if (title) doc = doc.replace(/<title>[^<]*<\/title>/, title);
  return doc.replace('</head>', `${head.map((h) => `  ${h}\n`).join('')}  </head>`);
}

rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
const entries: PrerenderedEntry[] = [];
for (const p of bundle.PRERENDERED_PAGES) {
  const name = p.path.slice(1).replaceAll('/', '-') || 'index';
  const entry: PrerenderedEntry = { path: p.path, queries: p.queries, file: `${name}.html`, variants: [] };
  writeFileSync(join(outDir, entry.file), await page(p.url, ''));
  if (p.cookieVariant) {
    const { cookie, value } = p.cookieVariant;
    const file = `${name}.${cookie}.html`;
    writeFileSync(join(outDir, file), await page(p.url, `${cookie}=${value}`));
    entry.variants.push({ cookie, file });
  }
  entries.push(entry);
}
writeFileSync(join(outDir, 'pages.json'), `${JSON.stringify(entries, null, 2)}\n`);

// A signed-in address's page names the signed-in start's chunks (vite.config.ts's page groups,
// docs/decisions/044), so the browser fetches them beside the entry instead of after running it.
const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8')) as Record<
  string,
  { file: string; name?: string; imports?: string[] }
>;
const preloads = new Set<string>();
const visit = (key: string) => {
  const chunk = manifest[key];
  if (!chunk || key === 'index.html' || preloads.has(`/${chunk.file}`)) return;
  preloads.add(`/${chunk.file}`);
  for (const next of chunk.imports ?? []) visit(next);
};
for (const [key, chunk] of Object.entries(manifest)) if (chunk.name === SIGNED_IN_START_GROUP) visit(key);
if (preloads.size === 0) throw new Error(`the manifest has no ${SIGNED_IN_START_GROUP} chunk (vite.config.ts)`);
const preloadEntries: PreloadEntry[] = [{ prefix: '/dashboard', scripts: [...preloads] }];
writeFileSync(join(outDir, 'preloads.json'), `${JSON.stringify(preloadEntries, null, 2)}\n`);
rmSync(bundleDir, { recursive: true, force: true });
console.log(`prerendered ${entries.map((e) => e.path).join(', ')} into dist/.prerendered`);
// Timers of the rendered app (the query cache's) would keep Node running.
process.exit(0);

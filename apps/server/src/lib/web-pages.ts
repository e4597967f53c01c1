import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync, constants as zlibConstants } from 'node:zlib';
import type { PortalConfig } from '@portal/contract';
import { injectPortalConfig } from './portal-config.ts';

/**
 * The web app's HTML pages, read once at start: index.html, which answers every address of the
 * single-page app, and the pages the build prerendered (docs/decisions/038), each for its path and
 * the query strings that show the same first view. A prerendered page may have a variant for a
 * request that carries a cookie (the sign-in page without its cookie notice once acknowledged).
 * Every page carries this deployment's configuration and is compressed once here.
 */

export interface HtmlPage {
  body: Buffer;
  br: Buffer;
  gzip: Buffer;
  /** whether the answer for this address depends on the request's cookies */
  byCookie: boolean;
}

export interface WebPages {
  /** `'sha256-...'` sources for the CSP's script-src: the pages' inline scripts, and nothing else */
  scriptHashes: string[];
  pageFor(path: string, query: string, cookieHeader: string | undefined): HtmlPage;
}

/** What the build writes to dist/.prerendered/pages.json (apps/web/prerender.ts). */
interface PrerenderedEntry {
  path: string;
  queries: string[];
  file: string;
  variants: { cookie: string; file: string }[];
}

/** What the build writes to dist/.prerendered/preloads.json (apps/web/prerender.ts). */
interface PreloadEntry {
  prefix: string;
  scripts: string[];
}

export const PRERENDERED_DIR = '.prerendered';

/** Whether a path is the prefix itself or under it (`/dashboard`, `/dashboard/usage`; not `/dashboards`). */
const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

/**
 * index.html naming scripts to fetch at once (docs/decisions/044): the entry finds them loaded instead
 * of asking for them after it ran. At low priority, so the stylesheet, which the first paint waits
 * for, is not slowed by them (measured: the first paint at 2.0 s instead of 1.5 s without).
 */
export function withModulePreloads(html: string, scripts: readonly string[]): string {
  if (!html.includes('</head>')) throw new Error('index.html has no </head> for the preloads');
  const links = scripts
    .map((src) => `  <link rel="modulepreload" fetchpriority="low" crossorigin href="${src}" />\n`)
    .join('');
  return html.replace('</head>', () => `${links}  </head>`);
}

/** Whether a Cookie header holds a cookie of that name (any value), as the web app reads document.cookie. */
export function hasCookie(header: string | undefined, name: string): boolean {
  if (!header) return false;
  return header.split(';').some((part) => {
    const eq = part.indexOf('=');
    return eq !== -1 && part.slice(0, eq).trim() === name;
  });
}

/** The CSP hash sources of a page's inline scripts (data blocks such as application/json are not scripts). */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const [, attributes = '', text = ''] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (/\bsrc\s*=/i.test(attributes)) continue;
    const type = /\btype\s*=\s*["']?([^"'\s>]+)/i.exec(attributes)?.[1]?.toLowerCase();
    if (type && type !== 'module' && type !== 'text/javascript') continue;
    hashes.push(`'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`);
  }
  return hashes;
}

function htmlPage(html: string, config: PortalConfig, byCookie: boolean): HtmlPage {
  const body = Buffer.from(injectPortalConfig(html, config));
  return {
    body,
    br: brotliCompressSync(body, {
      params: { [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY },
    }),
    gzip: gzipSync(body, { level: 9 }),
    byCookie,
  };
}

/** The pages of the build in `root`; undefined when the web app is not built. */
export function loadWebPages(root: string, config: PortalConfig): WebPages | undefined {
  const indexFile = join(root, 'index.html');
  if (!existsSync(indexFile)) return undefined;
  const indexHtml = readFileSync(indexFile, 'utf8');
  const hashes = new Set(inlineScriptHashes(indexHtml));
  const index = htmlPage(indexHtml, config, false);

  const preloadsFile = join(root, PRERENDERED_DIR, 'preloads.json');
  const preloaded = existsSync(preloadsFile)
    ? (JSON.parse(readFileSync(preloadsFile, 'utf8')) as PreloadEntry[]).map(
        (entry) => [entry.prefix, htmlPage(withModulePreloads(indexHtml, entry.scripts), config, false)] as const,
      )
    : [];

  const manifest = join(root, PRERENDERED_DIR, 'pages.json');
  const byPath = new Map<string, { queries: Set<string>; page: HtmlPage; variants: [string, HtmlPage][] }>();
  if (existsSync(manifest)) {
    const read = (file: string) => {
      const html = readFileSync(join(root, PRERENDERED_DIR, file), 'utf8');
      for (const hash of inlineScriptHashes(html)) hashes.add(hash);
      return html;
    };
    for (const entry of JSON.parse(readFileSync(manifest, 'utf8')) as PrerenderedEntry[]) {
      const byCookie = entry.variants.length > 0;
      byPath.set(entry.path, {
        queries: new Set(entry.queries),
        page: htmlPage(read(entry.file), config, byCookie),
        variants: entry.variants.map((v) => [v.cookie, htmlPage(read(v.file), config, byCookie)]),
      });
    }
  }

  return {
    scriptHashes: [...hashes],
    pageFor(path, query, cookieHeader) {
      const prerendered = byPath.get(path);
      if (!prerendered?.queries.has(query)) return preloaded.find(([prefix]) => under(path, prefix))?.[1] ?? index;
      return prerendered.variants.find(([cookie]) => hasCookie(cookieHeader, cookie))?.[1] ?? prerendered.page;
    },
  };
}

import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Rolldown } from 'vite';
import { ADMIN_CONSOLE, SIGN_IN_PAGE, SIGNED_IN_START } from './page-model.ts';
import {
  analyzeBundle,
  COMPRESSIONS,
  type Compression,
  contractForTheBrowser,
  lucideIconImports,
  PAGE_GROUPS,
  pageGroupOf,
  precompress,
} from './vite-plugins.ts';

const here = fileURLToPath(new URL('./', import.meta.url));
/** The signed-in start and the sign-in page (page-model.ts), as the module ids rolldown gives. */
const PAGE_ROOTS = {
  entry: `${here}src/main.tsx`,
  routesDir: `${here}src/routes/`,
  signedIn: SIGNED_IN_START.routes.map((file) => `${here}${file}`),
  signIn: SIGN_IN_PAGE.routes.map((file) => `${here}${file}`),
  alsoLoads: SIGNED_IN_START.alsoLoads.map((file) => `${here}${file}`),
};
/**
 * The back office's chunks are named for what they hold (docs/decisions/073), so a test can tell
 * admin code from the rest by file name: `admin-console-*` for the console (its feature folder and
 * its route files' split chunks; the route files themselves are in the entry, holding the guard),
 * `staff-check-*` for the guard's call and the contract's admin service. Only the names change:
 * the chunks are the ones the default splitting makes, so the customers' pages are as they were.
 */
const ADMIN_GUARD = [
  `${here}${ADMIN_CONSOLE.guard}`,
  fileURLToPath(new URL('../../packages/contract/src/admin.ts', import.meta.url)),
];
const [ADMIN_FEATURE, ADMIN_ROUTES] = ADMIN_CONSOLE.folders.map((folder) => `${here}${folder}`) as [string, string];
function isConsoleModule(id: string): boolean {
  const [file = '', query = ''] = id.split('?');
  return file.startsWith(ADMIN_FEATURE) || (file.startsWith(ADMIN_ROUTES) && query.includes('tsr-split'));
}
function chunkFileName(chunk: Rolldown.PreRenderedChunk): string {
  const name = chunk.moduleIds.some(isConsoleModule)
    ? ADMIN_CONSOLE.chunks.console
    : chunk.moduleIds.some((id) => ADMIN_GUARD.includes(id))
      ? ADMIN_CONSOLE.chunks.guard
      : '[name]';
  return `assets/${name}-[hash].js`;
}

/** One analysis of the module graph per chunking pass (the context object is the pass's). */
const pageGroups = new WeakMap<Rolldown.ChunkingContext, (id: string) => string | null>();
function pageGroup(ctx: Rolldown.ChunkingContext): (id: string) => string | null {
  let groupOf = pageGroups.get(ctx);
  if (!groupOf) {
    groupOf = pageGroupOf((id) => ctx.getModuleInfo(id), PAGE_ROOTS);
    pageGroups.set(ctx, groupOf);
  }
  return groupOf;
}

/**
 * PORTAL_COMPRESSION=fast: `npm start`'s build (scripts/start.mjs) makes its brotli and gzip copies
 * fast; anything else builds the release copies (docs/decisions/054).
 */
function compressionOf(value = 'release'): Compression {
  const compression = COMPRESSIONS.find((c) => c === value);
  if (!compression) throw new Error(`PORTAL_COMPRESSION: ${value} is none of ${COMPRESSIONS.join(', ')}`);
  return compression;
}

/**
 * `vite` (npm run dev): its port (WEB_DEV_PORT), and the server's (PORT), which it forwards /api and
 * /sandbox to with the page's Host header: the server answers only the hosts its PUBLIC_URL names,
 * and `npm run dev` names this server's address there (scripts/dev.ts).
 */
const devPort = Number(process.env.WEB_DEV_PORT ?? 5173);
const api = { target: `http://localhost:${process.env.PORT ?? 3000}`, changeOrigin: false };

// `isSsrBuild`: the Node bundle prerender.ts builds to prerender the public pages (docs/decisions/038).
export default defineConfig(({ isSsrBuild }) => ({
  plugins: [
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      // A route's loader travels with its component: the entry holds no screen's calls (and so none
      // of the contract's schemas), and a route still costs one request, not two in a row.
      codeSplittingOptions: { defaultBehavior: [['loader', 'component'], ['errorComponent'], ['notFoundComponent']] },
      // Tests sit beside the route files they test (STYLE.md 9); they are not routes.
      routeFileIgnorePattern: '\\.test\\.tsx?$',
    }),
    react(),
    contractForTheBrowser(),
    lucideIconImports(),
    tailwindcss(),
    ...(isSsrBuild ? [] : [precompress(compressionOf(process.env.PORTAL_COMPRESSION))]),
    ...(process.env.ANALYZE && !isSsrBuild ? [analyzeBundle()] : []),
  ],
  resolve: {
    alias: [
      { find: '@', replacement: fileURLToPath(new URL('./src', import.meta.url)) },
      // TanStack Store imports the shim, which carries a fallback for React before 18; React 19 has
      // useSyncExternalStore, and the package's plain build uses it directly (0.7 KB gzip less).
      { find: /^use-sync-external-store\/shim\/with-selector$/, replacement: 'use-sync-external-store/with-selector' },
    ],
  },
  // strictPort: the server's PUBLIC_URL names this port, so on another one every API call would be refused.
  server: { port: devPort, strictPort: true, proxy: { '/api': api, '/sandbox': api } },
  // The prerendering bundle holds every library, built for the browser: TanStack Router then renders
  // the tree it renders in the browser, which is what hydration needs.
  ssr: { noExternal: true, resolve: { conditions: ['browser'], externalConditions: ['browser'] } },
  build: isSsrBuild
    ? { outDir: '.prerender', emptyOutDir: true, sourcemap: false, minify: false }
    : {
        sourcemap: true,
        chunkSizeWarningLimit: 700,
        // dist/.vite/manifest.json: which chunks each route loads; the page budgets are computed from it
        // (bench/bundle-size.ts).
        manifest: true,
        rolldownOptions: {
          output: {
            chunkFileNames: chunkFileName,
            codeSplitting: {
              groups: [
                // Everything the entry loads statically is one chunk: it is needed on every page
                // anyway, and one file compresses better than forty slivers of it.
                { name: 'app', tags: ['$initial'], priority: 3 },
                // The signed-in start in three more (docs/decisions/044): what it shares with the
                // sign-in page, with other public pages, and what only it reaches (the shared parts
                // first, so the dependencies they hold stay out of the signed-in chunk).
                ...PAGE_GROUPS.map((group, i) => ({
                  debugName: group,
                  name: (id: string, ctx: Rolldown.ChunkingContext) => (pageGroup(ctx)(id) === group ? group : null),
                  priority: 2 - i / PAGE_GROUPS.length,
                })),
              ],
            },
          },
        },
      },
}));

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
 * The back office's chunks (docs/decisions/073). What only the console's split route modules reach
 * is one chunk, `admin-console-*`: a few files on the console's first load instead of twenty, and
 * one name in the entry's preload table. The guard's call and the contract's admin service keep
 * the default splitting and are named `staff-check-*`, all a customer who opens /admin fetches.
 * The names let a test tell admin code from the rest by file name.
 */
const ADMIN_GUARD = [
  `${here}${ADMIN_CONSOLE.guard}`,
  fileURLToPath(new URL('../../packages/contract/src/admin.ts', import.meta.url)),
];
const ADMIN_ROUTES = `${here}${ADMIN_CONSOLE.routesDir}`;
const isAdminSplit = (id: string) => id.startsWith(ADMIN_ROUTES) && id.includes('?tsr-split=');

/** The modules only the console's split route modules reach statically (not the guard's). */
function adminOnly(getModuleInfo: (id: string) => Rolldown.ModuleInfo | null): Set<string> {
  const reach = (roots: Iterable<string>, follow: (id: string) => boolean): Set<string> => {
    const seen = new Set<string>();
    const stack = [...roots];
    for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
      if (seen.has(id) || !follow(id)) continue;
      seen.add(id);
      const info = getModuleInfo(id);
      if (info) stack.push(...info.importedIds, ...info.dynamicallyImportedIds);
    }
    return seen;
  };
  // Everything the app reaches without entering the console, then what the console reaches beyond it.
  const rest = reach([PAGE_ROOTS.entry], (id) => !isAdminSplit(id));
  const all = reach([PAGE_ROOTS.entry], () => true);
  return new Set([...all].filter((id) => !rest.has(id) && !ADMIN_GUARD.includes(id.split('?')[0] as string)));
}
const adminModules = new WeakMap<Rolldown.ChunkingContext, Set<string>>();
function adminGroup(id: string, ctx: Rolldown.ChunkingContext): string | null {
  let modules = adminModules.get(ctx);
  if (!modules) {
    modules = adminOnly((m) => ctx.getModuleInfo(m));
    adminModules.set(ctx, modules);
  }
  return modules.has(id) ? ADMIN_CONSOLE.chunks.console : null;
}
function chunkFileName(chunk: Rolldown.PreRenderedChunk): string {
  const modules = chunk.facadeModuleId ? [chunk.facadeModuleId, ...chunk.moduleIds] : chunk.moduleIds;
  const name = modules.some(isAdminSplit)
    ? ADMIN_CONSOLE.chunks.console
    : modules.some((id) => ADMIN_GUARD.includes(id))
      ? ADMIN_CONSOLE.chunks.guard
      : '[name]';
  return `assets/${name}-[hash].js`;
}
/**
 * The entry lists, for each lazily loaded chunk, the chunks to preload with it. The back office's
 * lists would be the longest (ten routes, thirty chunks each) in the one file every customer
 * loads, so its chunks fetch what they import themselves: one more round trip for staff, and the
 * customers' entry stays as it was.
 */
const isAdminChunk = (file: string) =>
  [ADMIN_CONSOLE.chunks.console, ADMIN_CONSOLE.chunks.guard].some((name) => file.startsWith(`assets/${name}-`));

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
        modulePreload: { resolveDependencies: (file, deps) => (isAdminChunk(file) ? [] : deps) },
        rolldownOptions: {
          output: {
            chunkFileNames: chunkFileName,
            codeSplitting: {
              groups: [
                // Everything the entry loads statically is one chunk: it is needed on every page
                // anyway, and one file compresses better than forty slivers of it.
                { name: 'app', tags: ['$initial'], priority: 3 },
                // The back office's own modules, in one chunk (and without the modules it shares, so
                // no customer page ever imports it).
                { name: adminGroup, debugName: 'admin-console', priority: 2.5, includeDependenciesRecursively: false },
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

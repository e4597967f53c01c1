import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'packages/**/*.test.ts',
            'apps/hub/**/*.test.ts',
            'bench/**/*.test.ts',
            'apps/web/vite-plugins.test.ts',
            'scripts/**/*.test.ts',
          ],
        },
      },
      {
        // The web app's tests run in a DOM, and any console.error fails them (apps/web/src/test/setup.ts).
        resolve: { alias: { '@': fileURLToPath(new URL('./apps/web/src', import.meta.url)) } },
        test: {
          name: 'web',
          environment: 'jsdom',
          // One jsdom per worker instead of one per file (it was a third of the web tests' time):
          // files share the worker's modules, so a test must not rely on module state another file left.
          isolate: false,
          include: ['apps/web/src/**/*.test.ts', 'apps/web/src/**/*.test.tsx'],
          setupFiles: ['apps/web/src/test/setup.ts'],
        },
      },
      {
        test: {
          name: 'server',
          isolate: false,
          include: ['apps/server/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});

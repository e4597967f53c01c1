import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Vitest 5's reporter calls Map.groupBy, which Node 20 lacks; without it a failing test crashes the
// report instead of showing what failed.
if (!('groupBy' in Map)) {
  Object.defineProperty(Map, 'groupBy', {
    value<K, V>(items: Iterable<V>, key: (item: V, index: number) => K): Map<K, V[]> {
      const map = new Map<K, V[]>();
      let i = 0;
      for (const item of items) {
        const k = key(item, i++);
        const list = map.get(k);
        if (list) list.push(item);
        else map.set(k, [item]);
      }
      return map;
    },
  });
}

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

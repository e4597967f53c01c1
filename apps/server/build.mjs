// Bundles the server into dist/server.js and the operator command line into dist/cli.js (the contract package is TypeScript source, so it is
// bundled in; every other dependency stays external, piscina among them) and copies the SQL migrations and the hashing threads' task
// beside it.
import { chmodSync, cpSync, readFileSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const external = Object.keys(pkg.dependencies).filter((d) => !d.startsWith('@portal/'));
rmSync(new URL('./dist', import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: ['src/server.ts', 'src/cli.ts'],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  outdir: 'dist',
  sourcemap: true,
  external: [...external, 'zod'],
  logLevel: 'warning',
});
cpSync(new URL('./src/db/migrations', import.meta.url), new URL('./dist/migrations', import.meta.url), {
  recursive: true,
});
// The hashing threads' task (piscina loads it from a file by its path): beside the bundle, where
// lib/hash-workers.ts looks for it relative to itself.
cpSync(new URL('./src/lib/hash-worker.mjs', import.meta.url), new URL('./dist/hash-worker.mjs', import.meta.url));
// dist/cli.js is the package's `portal-admin` bin (its source starts with a #! line esbuild keeps).
chmodSync(new URL('./dist/cli.js', import.meta.url), 0o755);

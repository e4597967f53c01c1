// The builds `npm start` runs and the stamps that let it skip one whose inputs have not changed
// (scripts/start.mjs, docs/decisions/054). Plain JavaScript: `npm start` runs it with Node alone.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Bumped when what a stamp means changes, so the stamps of an older start.mjs are not trusted. */
const STAMP_VERSION = 1;
/** In the dist folder, so the next build, which empties the folder first, takes it away. */
export const STAMP_FILE = '.start-stamp.json';
/** Where the web build records how it made its brotli and gzip copies (apps/web/vite-plugins.ts). */
const COMPRESSION_RECORD = '.vite/compression.json';
/** What every build reads besides its own files: the dependencies as installed, their patches, the shared compiler options. */
const SHARED_INPUTS = ['package-lock.json', 'patches', 'tsconfig.base.json'];
/** Tests and their helpers are not built. */
const NOT_BUILT = /(\.test(-helpers)?\.tsx?$|\/test\/|\/__snapshots__\/)/;

const under = (dir, files) => files.map((file) => `${dir}/${file}`);

/** @type {import('./build-stamps.d.mts').Build[]} */
export const BUILDS = [
  {
    name: 'web app',
    workspace: '@portal/web',
    dist: 'apps/web/dist',
    inputs: [
      ...under('apps/web', ['index.html', 'package.json', 'tsconfig.json', 'vite.config.ts', 'vite-plugins.ts']),
      ...under('apps/web', ['page-model.ts', 'prerender.ts', 'src', 'public']),
      // Vite's env files, should there be any: their VITE_* values go into the bundle.
      ...under('apps/web', ['.env', '.env.local', '.env.production', '.env.production.local']),
      ...under('packages/contract', ['package.json', 'src']),
      ...under('packages/client', ['package.json', 'src']),
    ],
    // VITE_* variables go into the bundle; ANALYZE adds the bundle report.
    variables: (env) => Object.entries(env).filter(([key]) => key.startsWith('VITE_') || key === 'ANALYZE'),
    env: { PORTAL_COMPRESSION: 'fast' },
  },
  {
    name: 'server',
    workspace: '@portal/server',
    dist: 'apps/server/dist',
    inputs: [
      ...under('apps/server', ['build.mjs', 'package.json', 'tsconfig.json', 'src']),
      ...under('packages/contract', ['package.json', 'src']),
    ],
    variables: () => [],
    env: {},
  },
];

/** Files under a path (the path itself when it is a file), sorted; none when it does not exist. */
function filesUnder(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => (name === 'node_modules' ? [] : filesUnder(join(path, name))));
}

/** The hash of a build's inputs: each file's path and content, the variables it reads and its own settings. */
export function inputsHash(build, env = process.env, root = ROOT) {
  const hash = createHash('sha256');
  hash.update(JSON.stringify({ version: STAMP_VERSION, env: build.env, variables: build.variables(env).sort() }));
  for (const input of [...build.inputs, ...SHARED_INPUTS])
    for (const file of filesUnder(join(root, input))) {
      const name = relative(root, file);
      if (!NOT_BUILT.test(name)) hash.update(`\0${name}\0`).update(readFileSync(file));
    }
  return hash.digest('hex');
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Whether the build in the dist folder is the one these inputs make: a start build's stamp with this
 * hash, and for the web app the copies the stamp names, as the build itself recorded them (a release
 * build records `release` and leaves no stamp).
 */
export function upToDate(build, hash, root = ROOT) {
  const dist = join(root, build.dist);
  const stamp = readJson(join(dist, STAMP_FILE));
  if (stamp?.build !== 'start' || stamp.inputs !== hash) return false;
  const compression = build.env.PORTAL_COMPRESSION;
  if (!compression) return true;
  return stamp.compression === compression && readJson(join(dist, COMPRESSION_RECORD))?.compression === compression;
}

/** Stamps a finished start build with the hash of the inputs it was built from. */
export function writeStamp(build, hash, root = ROOT) {
  const compression = build.env.PORTAL_COMPRESSION;
  const stamp = { build: 'start', inputs: hash, ...(compression ? { compression } : {}) };
  writeFileSync(join(root, build.dist, STAMP_FILE), `${JSON.stringify(stamp, null, 2)}\n`);
}

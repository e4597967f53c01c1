// `npm start`: builds what changed since the last start, then starts the server (docs/decisions/054).
// A build (the web app, the server) is skipped when the stamp it left in its dist folder names the same
// inputs (scripts/build-stamps.mjs). The web app is built with fast brotli and gzip copies
// (PORTAL_COMPRESSION=fast); `npm run build` makes the release copies (brotli 11, zopfli) and leaves no
// stamp, and every build empties its dist folder first, so one is never taken for the other.
import './check-node.mjs';
import { spawnSync } from 'node:child_process';
import { BUILDS, inputsHash, ROOT, upToDate, writeStamp } from './build-stamps.mjs';

for (const build of BUILDS) {
  // Hashed before building: a file changed while it builds makes the next start build again.
  const hash = inputsHash(build);
  if (upToDate(build, hash)) {
    console.log(`npm start: the ${build.name} is as built at the last start (${build.dist})`);
    continue;
  }
  const fast =
    build.env.PORTAL_COMPRESSION === 'fast' ? ', fast compression (npm run build makes the release copies)' : '';
  console.log(`npm start: building the ${build.name}${fast}`);
  const began = Date.now();
  const res = spawnSync('npm', ['run', 'build', '-w', build.workspace], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, ...build.env },
  });
  if (res.status !== 0) {
    console.error(`npm start: the ${build.name}'s build failed`);
    process.exit(res.status ?? 1);
  }
  writeStamp(build, hash);
  console.log(`npm start: built the ${build.name} in ${((Date.now() - began) / 1000).toFixed(1)} s`);
}
// In this process, as `node apps/server/dist/server.js` ran before: its signals and exit code are the start's.
await import(new URL('../apps/server/dist/server.js', import.meta.url).href);

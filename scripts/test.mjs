#!/usr/bin/env node
// `npm test`: typecheck, lint, module boundaries, the API reference check, unit and server tests (vitest, the server
// tests on PGlite), the server tests again on PostgreSQL (TEST_DATABASE_URL, or an embedded PostgreSQL 15 started for
// the step), the build, the page JavaScript budgets, then the end-to-end tests (Playwright in Chromium). Prints one
// closing line "N passed, N failed". `npm test -- <step>...` runs only the steps named: typecheck, lint, boundaries,
// docs, unit, postgres, e2e.
import './check-node.mjs';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';

const startedAt = Date.now();
const out = '.test-output';
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
mkdirSync('screenshots', { recursive: true });

const only = process.argv.slice(2);
const want = (step) => only.length === 0 || only.includes(step);
const failures = [];
/** How long each step took, printed at the end: where CI's time goes (it has a 20-minute budget). */
const timings = [];

function run(name, cmd, args, env = {}) {
  console.log(`\n=== ${name}: ${cmd} ${args.join(' ')}`);
  const began = Date.now();
  const res = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  timings.push(`${name}: ${Math.round((Date.now() - began) / 1000)} s`);
  if (res.status !== 0) failures.push(name);
  return res.status === 0;
}

/** Runs steps `lanes` at a time; a step's output is printed in one piece when it ends. */
async function runInLanes(steps, lanes) {
  const queue = [...steps];
  const one = ([name, cmd, args]) =>
    new Promise((resolve) => {
      const began = Date.now();
      const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
      const chunks = [];
      child.stdout.on('data', (c) => chunks.push(c));
      child.stderr.on('data', (c) => chunks.push(c));
      child.on('close', (code) => {
        console.log(`\n=== ${name}: ${cmd} ${args.join(' ')}`);
        process.stdout.write(Buffer.concat(chunks));
        timings.push(`${name}: ${Math.round((Date.now() - began) / 1000)} s`);
        if (code !== 0) failures.push(name);
        resolve();
      });
    });
  const lane = async () => {
    for (let step = queue.shift(); step; step = queue.shift()) await one(step);
  };
  await Promise.all(Array.from({ length: lanes }, lane));
}

// The static checks are single-threaded: they run two at a time (the machine has two cores), each one's output
// printed whole when it ends.
const checks = [];
if (want('typecheck'))
  for (const p of [
    'apps/web',
    'apps/server',
    'packages/contract',
    'packages/client',
    'packages/testing',
    'apps/hub',
    'tsconfig.scripts.json',
  ])
    checks.push([`typecheck ${p}`, 'npx', ['tsc', '-p', p]]);
if (want('lint')) checks.push(['lint', 'npx', ['biome', 'check', '.']]);
if (want('boundaries')) checks.push(['module boundaries', 'npm', ['run', '--silent', 'boundaries']]);
if (want('docs')) checks.push(['api reference up to date', 'npx', ['tsx', 'scripts/gen-api-docs.ts', '--check']]);
await runInLanes(checks, Math.max(1, Math.min(2, availableParallelism())));

// The PGlite pass: a TEST_DATABASE_URL in the environment is the next step's, not this one's.
if (want('unit'))
  run(
    'unit and server tests',
    'npx',
    ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile=${out}/vitest.json`],
    { TEST_DATABASE_URL: '' },
  );
if (want('postgres'))
  run('server tests on PostgreSQL', 'npx', [
    'tsx',
    'scripts/with-postgres.ts',
    'npx',
    'vitest',
    'run',
    '--project',
    'server',
    '--reporter=default',
    '--reporter=json',
    `--outputFile=${out}/vitest-postgres.json`,
  ]);
if (want('e2e')) {
  if (run('build', 'npm', ['run', 'build'])) {
    // Sizes are deterministic, so the page budgets are a check, not a benchmark (bench/bundle-size.ts).
    run('page JavaScript budgets', 'npx', ['tsx', 'bench/bundle-size.ts', '--check']);
    run('end-to-end tests', 'npx', ['playwright', 'test']);
  }
}

/** Each test runner's report, as its JSON reporter wrote it, and how to count it. */
const reports = {
  'unit and server tests': { file: 'vitest.json', count: (v) => [v.numPassedTests, v.numFailedTests] },
  'server tests on PostgreSQL': { file: 'vitest-postgres.json', count: (v) => [v.numPassedTests, v.numFailedTests] },
  'end-to-end tests': { file: 'e2e.json', count: (v) => [v.stats.expected + v.stats.flaky, v.stats.unexpected] },
};
let passed = 0;
let failed = 0;
for (const { file, count } of Object.values(reports)) {
  if (!existsSync(`${out}/${file}`)) continue;
  const [p, f] = count(JSON.parse(readFileSync(`${out}/${file}`, 'utf8')));
  passed += p;
  failed += f;
}
// A step that failed without a report of failed tests (typecheck, lint, build, a runner that could not start)
// counts as one failed check.
for (const step of failures) {
  const report = reports[step];
  if (!report || !existsSync(`${out}/${report.file}`)) failed += 1;
}
console.log(`\nsteps: ${timings.join(', ')}; total ${Math.round((Date.now() - startedAt) / 1000)} s`);
if (failures.length) console.log(`\nfailed steps: ${failures.join(', ')}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failures.length ? 1 : 0);

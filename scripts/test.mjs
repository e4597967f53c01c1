#!/usr/bin/env node
// `npm test`: typecheck, lint, module boundaries, the API reference check, unit and server tests (vitest), the build,
// the page JavaScript budgets, then the end-to-end tests (Playwright in Chromium). Prints one closing line "N passed, N failed".
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

const out = '.test-output';
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
mkdirSync('screenshots', { recursive: true });

const only = process.argv.slice(2);
const want = (step) => only.length === 0 || only.includes(step);
const failures = [];

function run(name, cmd, args, env = {}) {
  console.log(`\n=== ${name}: ${cmd} ${args.join(' ')}`);
  const res = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  if (res.status !== 0) failures.push(name);
  return res.status === 0;
}

if (want('typecheck'))
  for (const p of [
    'packages/contract',
    'packages/client',
    'packages/testing',
    'apps/server',
    'apps/web',
    'apps/hub',
    'tsconfig.scripts.json',
  ])
    run(`typecheck ${p}`, 'npx', ['tsc', '-p', p]);
if (want('lint')) run('lint', 'npx', ['biome', 'check', '.']);
if (want('boundaries')) run('module boundaries', 'npm', ['run', '--silent', 'boundaries']);
if (want('docs')) run('api reference up to date', 'npx', ['tsx', 'scripts/gen-api-docs.ts', '--check']);
if (want('unit'))
  run('unit and server tests', 'npx', [
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile=${out}/vitest.json`,
  ]);
if (want('e2e')) {
  if (run('build', 'npm', ['run', 'build'])) {
    // Sizes are deterministic, so the page budgets are a check, not a benchmark (bench/bundle-size.ts).
    run('page JavaScript budgets', 'npx', ['tsx', 'bench/bundle-size.ts', '--check']);
    run('end-to-end tests', 'npx', ['playwright', 'test']);
  }
}

let passed = 0;
let failed = 0;
if (existsSync(`${out}/vitest.json`)) {
  const v = JSON.parse(readFileSync(`${out}/vitest.json`, 'utf8'));
  passed += v.numPassedTests;
  failed += v.numFailedTests;
}
if (existsSync(`${out}/e2e.json`)) {
  const s = JSON.parse(readFileSync(`${out}/e2e.json`, 'utf8')).stats;
  passed += s.expected + s.flaky;
  failed += s.unexpected;
}
// A step that failed outside a test runner (typecheck, lint, build) counts as one failed check.
const outsideRunners = failures.filter((f) => f !== 'unit and server tests' && f !== 'end-to-end tests');
failed += outsideRunners.length;
if (failures.length) console.log(`\nfailed steps: ${failures.join(', ')}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failures.length ? 1 : 0);

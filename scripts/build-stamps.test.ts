import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BUILDS, inputsHash, upToDate, writeStamp } from './build-stamps.mjs';

/** `npm start` skips a build whose stamp names the same inputs (docs/decisions/054). */
const [web, server] = BUILDS as [(typeof BUILDS)[number], (typeof BUILDS)[number]];
let root: string;
const write = (path: string, text: string) => {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
};

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'build-stamps-'));
  write('package-lock.json', '{}');
  write('apps/web/index.html', '<title>Robot Portal</title>');
  write('apps/web/src/main.tsx', 'render();');
  write('apps/web/src/main.test.tsx', 'test();');
  write('apps/web/src/test/setup.ts', 'setup();');
  write('packages/contract/src/errors.ts', 'export const A = 1;');
  write('apps/server/src/server.ts', 'listen();');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('inputsHash', () => {
  const hash = (env: NodeJS.ProcessEnv = {}) => inputsHash(web, env, root);

  it.each([
    ['a source file', 'apps/web/src/main.tsx'],
    ['a workspace package the app imports', 'packages/contract/src/errors.ts'],
    ['the lock file', 'package-lock.json'],
    ['a patch of a dependency', 'patches/postgres+3.4.9.patch'],
    ["Vite's env file", 'apps/web/.env'],
  ])('changes with %s', (_name, file) => {
    const before = hash();
    write(file, 'changed');
    expect(hash()).not.toBe(before);
  });

  it.each([
    ['a test', 'apps/web/src/main.test.tsx'],
    ["the tests' helpers", 'apps/web/src/test/setup.ts'],
    ["the server's sources", 'apps/server/src/server.ts'],
  ])('not with %s', (_name, file) => {
    const before = hash();
    write(file, 'changed');
    expect(hash()).toBe(before);
  });

  it('changes with a VITE_ variable (it goes into the bundle), not with another one', () => {
    expect(hash({ VITE_SENTRY_DSN: 'https://k@sentry.example/1' })).not.toBe(hash());
    expect(hash({ PORT: '4000' })).toBe(hash());
  });

  it("the server's changes with its sources and the contract, not the web app's", () => {
    const before = inputsHash(server, {}, root);
    write('apps/web/src/main.tsx', 'changed');
    expect(inputsHash(server, {}, root)).toBe(before);
    write('packages/contract/src/errors.ts', 'changed');
    expect(inputsHash(server, {}, root)).not.toBe(before);
  });
});

describe('upToDate', () => {
  const built = (compression: string) => write('apps/web/dist/.vite/compression.json', JSON.stringify({ compression }));

  it('a start build stamped with these inputs is reused', () => {
    built('fast');
    writeStamp(web, 'abc', root);
    expect(upToDate(web, 'abc', root)).toBe(true);
    expect(upToDate(web, 'abd', root)).toBe(false);
  });

  it('no stamp (never started, or `npm run build` emptied the folder since) builds again', () => {
    built('release');
    expect(upToDate(web, 'abc', root)).toBe(false);
  });

  it('a stamp beside copies the build did not record as fast is not trusted', () => {
    write('apps/web/dist/index.html', '');
    writeStamp(web, 'abc', root);
    expect(upToDate(web, 'abc', root)).toBe(false);
    built('release');
    expect(upToDate(web, 'abc', root)).toBe(false);
  });

  it('the server has no compressed copies: its stamp alone', () => {
    write('apps/server/dist/server.js', '');
    writeStamp(server, 'abc', root);
    expect(upToDate(server, 'abc', root)).toBe(true);
  });
});

import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Manifest, measurePages, overBudget, pageScripts } from './bundle-size.ts';

const manifest: Manifest = {
  'index.html': { file: 'assets/index.js', isEntry: true, imports: ['_shared.js'], dynamicImports: ['src/lazy.ts'] },
  '_shared.js': { file: 'assets/shared.js' },
  '_dialog.js': { file: 'assets/dialog.js', imports: ['_shared.js'] },
  'src/routes/login.tsx?tsr-split=component---loader': { file: 'assets/login.js', imports: ['_shared.js'] },
  'src/routes/login.tsx?tsr-split=errorComponent': { file: 'assets/login-error.js' },
  'src/routes/home.tsx?tsr-split=component---loader': { file: 'assets/home.js', imports: ['_dialog.js'] },
  'src/lazy.ts': { file: 'assets/lazy.js', imports: ['_dialog.js'] },
};

describe('pageScripts', () => {
  it.each([
    [
      'a route: entry, its component chunk and their imports',
      { routes: ['src/routes/login.tsx'] },
      ['index', 'shared', 'login'],
    ],
    ['a route importing a shared chunk', { routes: ['src/routes/home.tsx'] }, ['index', 'shared', 'home', 'dialog']],
    [
      'a start-up dynamic import',
      { routes: ['src/routes/login.tsx'], alsoLoads: ['src/lazy.ts'] },
      ['index', 'shared', 'login', 'lazy', 'dialog'],
    ],
  ])('%s', (_name, page, files) => {
    expect(pageScripts(manifest, page).sort()).toEqual(files.map((f) => `assets/${f}.js`).sort());
  });

  it('refuses a page whose route the build does not have', () => {
    expect(() => pageScripts(manifest, { routes: ['src/routes/gone.tsx'] })).toThrow(
      /no chunk of src\/routes\/gone.tsx/,
    );
  });
});

describe('measurePages against budgets', () => {
  const dist = mkdtempSync(join(tmpdir(), 'bundle-size-'));
  mkdirSync(join(dist, '.vite'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, '.vite/manifest.json'), JSON.stringify(manifest));
  // Files whose gzip size is known: each .gz stands for what the build wrote next to its file.
  for (const [name, gz] of [
    ['index', 600],
    ['shared', 300],
    ['login', 100],
    ['login-error', 50],
    ['home', 50],
    ['dialog', 50],
    ['lazy', 50],
  ] as const) {
    writeFileSync(join(dist, `assets/${name}.js`), 'x'.repeat(gz * 3));
    writeFileSync(join(dist, `assets/${name}.js.gz`), Buffer.alloc(gz));
    writeFileSync(join(dist, `assets/${name}.js.br`), Buffer.alloc(gz - 10));
  }
  const pages = { '/auth/login': { routes: ['src/routes/login.tsx'] } };

  it('sums the gzip files of the page: the entry, the shared chunk and the route, not its error screen', () => {
    const [login] = measurePages(dist, pages, {});
    expect(login).toMatchObject({ gzip: 1000, brotli: 970, raw: 3000 });
  });

  it.each([
    ['at its ceiling', 1000, []],
    ['one byte over its ceiling', 999, ['/auth/login: 1,000 B gzip is over its ceiling of 999 B']],
  ])('a page %s', (_name, ceiling, lines) => {
    expect(overBudget(measurePages(dist, pages, { '/auth/login': { target: 500, ceiling } }))).toEqual(lines);
  });
});

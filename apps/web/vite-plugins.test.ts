import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { parseSync } from 'vite';
import { describe, expect, it } from 'vitest';
import {
  lucideIconFiles,
  PRECOMPRESS_MIN_BYTES,
  pageGroupOf,
  precompress,
  recordedCompression,
  withIconImports,
  withoutRequests,
} from './vite-plugins';

describe('precompress (the build writes .br and .gz copies, decisions 025, 039 and 054)', () => {
  it.each(['release', 'fast'] as const)(
    '%s: each copy reads back as the file; small and binary files get none; the build records how it compressed',
    async (compression) => {
      const dir = mkdtempSync(join(tmpdir(), 'precompress-'));
      try {
        mkdirSync(join(dir, 'assets'));
        // A script-like file that compresses, as a chunk does.
        const script = Array.from({ length: 400 }, (_, i) => `export const v${i} = () => "value ${i % 17}";`).join(
          '\n',
        );
        const files: Record<string, string | Buffer> = {
          'assets/app.js': script,
          'assets/tiny.js': 'x'.repeat(PRECOMPRESS_MIN_BYTES - 1),
          'assets/photo.png': Buffer.alloc(4096, 7),
          'index.html': `<!doctype html>${'<p>portal</p>'.repeat(200)}`,
        };
        for (const [name, body] of Object.entries(files)) writeFileSync(join(dir, name), body);
        const plugin = precompress(compression) as unknown as {
          configResolved(c: { build: { outDir: string } }): void;
          closeBundle(): Promise<void>;
        };
        expect(recordedCompression(dir)).toBeUndefined();
        plugin.configResolved({ build: { outDir: dir } });
        await plugin.closeBundle();
        for (const name of ['assets/app.js', 'index.html']) {
          const body = readFileSync(join(dir, name));
          const gz = readFileSync(join(dir, `${name}.gz`));
          expect(gunzipSync(gz).equals(body), name).toBe(true);
          expect(brotliDecompressSync(readFileSync(join(dir, `${name}.br`))).equals(body), name).toBe(true);
          expect(gz.length, name).toBeLessThanOrEqual(gzipSync(body, { level: 9 }).length);
          // zopfli's copy beats zlib's best; the fast copy is zlib's.
          if (name.endsWith('.js') && compression === 'release')
            expect(gz.length).toBeLessThan(gzipSync(body, { level: 9 }).length);
        }
        for (const name of ['assets/tiny.js', 'assets/photo.png'])
          expect([existsSync(join(dir, `${name}.gz`)), existsSync(join(dir, `${name}.br`))], name).toEqual([
            false,
            false,
          ]);
        expect(recordedCompression(dir)).toBe(compression);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});

const strip = (code: string) => withoutRequests(code, parseSync('contract.js', code).program);

describe('withoutRequests (the browser build of the contract)', () => {
  const contract = [
    'export const svc = service("s", "/api/s", {',
    '  One: action({',
    "    summary: 'Does one thing.',",
    '    auth: "bearer",',
    '    request: z.object({',
    '      email: normalisedEmail,',
    '    }),',
    '    response: response({ ok: z.boolean() }),',
    '  }),',
    '});',
  ].join('\n');

  it('leaves out the request and the summary of an action, and nothing else', () => {
    const out = strip(contract) as string;
    const svc = new Function(
      'service',
      'action',
      'z',
      'normalisedEmail',
      'response',
      `${out.replace('export ', '')}; return svc;`,
    )(
      (_n: string, _p: string, actions: object) => actions,
      (def: object) => def,
      { object: () => 'request schema', boolean: () => 'boolean' },
      'email',
      (shape: object) => shape,
    );
    expect(svc).toEqual({ One: { summary: '', auth: 'bearer', request: undefined, response: { ok: 'boolean' } } });
  });

  it('keeps every other line and column where it was (the source map stays right)', () => {
    const out = strip(contract) as string;
    expect(out).toHaveLength(contract.length);
    expect(out.split('\n').map((line) => line.length)).toEqual(contract.split('\n').map((line) => line.length));
    expect(out.split('\n')[7]).toBe(contract.split('\n')[7]);
  });

  it.each([
    ['no action', 'export const x = z.object({ request: z.string(), summary: "kept" });'],
    ['a shorthand request', 'const request = z.string(); export const a = action({ request, summary: s });'],
    ['a call of another function', 'export const a = other({ request: z.string(), summary: "kept" });'],
  ])('changes nothing with %s', (_name, code) => {
    expect(strip(code)).toBeUndefined();
  });
});

describe('lucide-react icons imported file by file (decision 044)', () => {
  const files = lucideIconFiles(
    [
      "export { default as ChevronDown, default as ChevronDownIcon, default as LucideChevronDown } from './icons/chevron-down.mjs';",
      "export { default as Bot, default as BotIcon } from './icons/bot.mjs';",
      "export { LucideProvider } from './context.mjs';",
    ].join('\n'),
  );
  const rewrite = (code: string) => withIconImports(code, parseSync('m.js', code).program, files);

  it('reads every name of each icon from the index', () => {
    expect([...files]).toEqual([
      ['ChevronDown', 'chevron-down'],
      ['ChevronDownIcon', 'chevron-down'],
      ['LucideChevronDown', 'chevron-down'],
      ['Bot', 'bot'],
      ['BotIcon', 'bot'],
    ]);
  });

  it.each([
    [
      'one icon',
      "import { BotIcon } from 'lucide-react';\nuse(BotIcon);",
      "import BotIcon from 'lucide-react/icons/bot';\nuse(BotIcon);",
    ],
    [
      'a renamed icon and a name that is no icon, over three lines',
      "import {\n  ChevronDown as Open,\n  LucideProvider,\n} from 'lucide-react';\nuse(Open);",
      "import Open from 'lucide-react/icons/chevron-down'; import { LucideProvider } from 'lucide-react';\n\n\n\nuse(Open);",
    ],
    ['no icon', "import { LucideProvider } from 'lucide-react';", undefined],
    ['another package', "import { Bot } from 'robots';", undefined],
  ])('%s', (_name, code, expected) => {
    expect(rewrite(code)).toBe(expected);
    // every line after the import stays where it was, so the source map needs no change
    if (expected) expect(expected.split('\n').length).toBe(code.split('\n').length);
  });
});

describe('pageGroupOf (the signed-in start in a few chunks, decision 044)', () => {
  // main imports the router (app) and two routes by dynamic import; each route file splits its
  // component off (?tsr-split), as TanStack's code splitting does.
  const graph: Record<string, [string[], string[]]> = {
    '/s/main.tsx': [
      ['/s/app.ts', '/s/routes/_authenticated.tsx', '/s/routes/auth/login.tsx', '/s/routes/auth/signup.tsx'],
      [],
    ],
    '/s/app.ts': [['/s/ui/button.tsx'], []],
    '/s/ui/button.tsx': [[], []],
    '/s/routes/_authenticated.tsx': [
      [],
      ['/s/routes/_authenticated.tsx?tsr-split=component', '/s/routes/_authenticated.tsx?tsr-split=errorComponent'],
    ],
    '/s/routes/_authenticated.tsx?tsr-split=component': [
      ['/s/shell.tsx', '/s/ui/card.tsx', '/s/ui/select.tsx', '/s/ui/button.tsx'],
      [],
    ],
    '/s/routes/_authenticated.tsx?tsr-split=errorComponent': [['/s/oops.tsx'], []],
    '/s/routes/auth/login.tsx': [[], ['/s/routes/auth/login.tsx?tsr-split=component---loader']],
    '/s/routes/auth/login.tsx?tsr-split=component---loader': [['/s/ui/card.tsx', '/s/login-form.tsx'], []],
    '/s/routes/auth/signup.tsx': [[], ['/s/routes/auth/signup.tsx?tsr-split=component']],
    '/s/routes/auth/signup.tsx?tsr-split=component': [['/s/ui/select.tsx'], []],
    '/s/shell.tsx': [['/s/ui/card.tsx'], []],
    '/s/ui/card.tsx': [[], []],
    '/s/ui/select.tsx': [[], []],
    '/s/login-form.tsx': [[], []],
    '/s/oops.tsx': [[], []],
    '/s/calls.ts': [[], []],
  };
  const groupOf = pageGroupOf(
    (id) => {
      const [importedIds, dynamicallyImportedIds] = graph[id] ?? [[], []];
      return graph[id] ? { importedIds, dynamicallyImportedIds } : null;
    },
    {
      entry: '/s/main.tsx',
      routesDir: '/s/routes/',
      signedIn: ['/s/routes/_authenticated.tsx'],
      signIn: ['/s/routes/auth/login.tsx'],
      alsoLoads: ['/s/calls.ts'],
    },
  );

  it.each([
    ['the signed-in route itself', '/s/routes/_authenticated.tsx?tsr-split=component', 'signed-in'],
    ['what only it reaches', '/s/shell.tsx', 'signed-in'],
    ['what it loads at start', '/s/calls.ts', 'signed-in'],
    ['what the sign-in page reaches too', '/s/ui/card.tsx', 'common'],
    ['what another public page reaches too', '/s/ui/select.tsx', 'public-shared'],
    ["what the entry imports (the entry's own group)", '/s/ui/button.tsx', null],
    ['its error screen (loaded only on an error)', '/s/oops.tsx', null],
    ["the sign-in page's own", '/s/login-form.tsx', null],
    ['the route file itself (imported by the entry)', '/s/routes/_authenticated.tsx', null],
  ])('%s', (_name, id, group) => {
    expect(groupOf(id)).toBe(group);
  });
});

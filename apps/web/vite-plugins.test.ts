import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { parseSync } from 'vite';
import { describe, expect, it } from 'vitest';
import { PRECOMPRESS_MIN_BYTES, precompress, withoutRequests } from './vite-plugins';

describe('precompress (the build writes .br and .gz copies, decisions 025 and 039)', () => {
  it('each copy reads back as the file; the gzip copy beats zlib level 9; small and binary files get none', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'precompress-'));
    try {
      mkdirSync(join(dir, 'assets'));
      // A script-like file that compresses, as a chunk does.
      const script = Array.from({ length: 400 }, (_, i) => `export const v${i} = () => "value ${i % 17}";`).join('\n');
      const files: Record<string, string | Buffer> = {
        'assets/app.js': script,
        'assets/tiny.js': 'x'.repeat(PRECOMPRESS_MIN_BYTES - 1),
        'assets/photo.png': Buffer.alloc(4096, 7),
        'index.html': `<!doctype html>${'<p>portal</p>'.repeat(200)}`,
      };
      for (const [name, body] of Object.entries(files)) writeFileSync(join(dir, name), body);
      const plugin = precompress() as unknown as {
        configResolved(c: { build: { outDir: string } }): void;
        closeBundle(): Promise<void>;
      };
      plugin.configResolved({ build: { outDir: dir } });
      await plugin.closeBundle();
      for (const name of ['assets/app.js', 'index.html']) {
        const body = readFileSync(join(dir, name));
        const gz = readFileSync(join(dir, `${name}.gz`));
        expect(gunzipSync(gz).equals(body), name).toBe(true);
        expect(brotliDecompressSync(readFileSync(join(dir, `${name}.br`))).equals(body), name).toBe(true);
        expect(gz.length, name).toBeLessThanOrEqual(gzipSync(body, { level: 9 }).length);
        if (name.endsWith('.js')) expect(gz.length).toBeLessThan(gzipSync(body, { level: 9 }).length);
      }
      for (const name of ['assets/tiny.js', 'assets/photo.png'])
        expect([existsSync(join(dir, `${name}.gz`)), existsSync(join(dir, `${name}.br`))], name).toEqual([
          false,
          false,
        ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
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

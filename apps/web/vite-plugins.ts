// Build-time plugins of the web app: precompression (always) and a bundle report (ANALYZE=1 only).
// docs/decisions/025-precompressed-assets-and-page-budgets.md
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { gzipAsync } from '@gfx/zopfli';
import type { Plugin } from 'vite';

/** Text files worth compressing; images other than SVG and fonts are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;
/** Below this, the headers cost more than compression saves (the same threshold the API uses). */
export const PRECOMPRESS_MIN_BYTES = 1024;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/**
 * zopfli's iterations: one already gives nearly all of its gain over zlib's level 9 (3.5% on the
 * entry chunk; fifteen iterations add 0.1% for 1.7x the time).
 */
const ZOPFLI_ITERATIONS = 1;

/**
 * Writes `<file>.br` (brotli, quality 11) and `<file>.gz` next to every compressible file of the
 * build, so the server answers each request from disk without compressing anything. The gzip copy
 * is zopfli's: a deflate stream any gzip reader takes, 3-4% smaller than zlib's best, paid once at
 * build time (docs/decisions/039). index.html too: the server injects the deployment's
 * configuration into it and compresses that once.
 */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'portal-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async closeBundle() {
      for (const file of filesUnder(outDir)) {
        if (!COMPRESSIBLE.test(file) || relative(outDir, file).startsWith('.vite')) continue;
        const body = readFileSync(file);
        if (body.length < PRECOMPRESS_MIN_BYTES) continue;
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(body, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
              [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
            },
          }),
        );
        writeFileSync(`${file}.gz`, await gzipAsync(body, { numiterations: ZOPFLI_ITERATIONS }));
      }
    },
  };
}

/**
 * `ANALYZE=1 npm run build -w @portal/web` writes dist/.vite/analyze.json: for each chunk, its
 * imports and its modules with their minified size and gzip size alone, largest first. Off in the
 * default build. Read it with `npx tsx bench/bundle-size.ts --modules`.
 */
export function analyzeBundle(): Plugin {
  return {
    name: 'portal-analyze-bundle',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).flatMap((chunk) =>
        chunk.type === 'chunk'
          ? [
              {
                file: chunk.fileName,
                gzip: gzipSync(chunk.code, { level: 9 }).length,
                imports: chunk.imports,
                dynamicImports: chunk.dynamicImports,
                modules: Object.entries(chunk.modules)
                  .map(([id, m]) => ({
                    id: id.replace(/^.*node_modules\//, '~/').replace(process.cwd(), '.'),
                    bytes: m.renderedLength,
                    gzipAlone: m.code ? gzipSync(m.code, { level: 9 }).length : 0,
                  }))
                  .sort((a, b) => b.gzipAlone - a.gzipAlone),
              },
            ]
          : [],
      );
      this.emitFile({ type: 'asset', fileName: '.vite/analyze.json', source: JSON.stringify(chunks, null, 1) });
    },
  };
}

interface Node {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

function walk(node: unknown, visit: (n: Node) => void): void {
  if (Array.isArray(node)) for (const child of node) walk(child, visit);
  else if (node && typeof node === 'object' && typeof (node as Node).type === 'string') {
    visit(node as Node);
    for (const [key, value] of Object.entries(node))
      if (key !== 'type' && value && typeof value === 'object') walk(value, visit);
  }
}

/** What the browser's contract leaves out of an action: its request schema and its summary. */
const LEFT_OUT: Record<string, string> = { request: 'void 0', summary: "''" };

/**
 * A contract module (as JavaScript, with its parsed `program`) with the `request` and `summary` of
 * every `action({ ... })` replaced by `void 0` and `''`, padded with spaces to the length of what
 * they replace, so every other line and column stays where it was and the source map needs no
 * change. Undefined when there is nothing to leave out.
 */
export function withoutRequests(code: string, program: unknown): string | undefined {
  const blanks: { start: number; end: number; value: string }[] = [];
  walk(program, (node) => {
    const callee = node.callee as Node | undefined;
    const [arg] = (node.arguments as Node[] | undefined) ?? [];
    if (node.type !== 'CallExpression' || callee?.type !== 'Identifier' || callee.name !== 'action') return;
    if (arg?.type !== 'ObjectExpression') return;
    for (const prop of arg.properties as Node[]) {
      const key = prop.key as Node | undefined;
      const name = key?.type === 'Identifier' ? key.name : key?.value;
      const value = prop.value as Node;
      const replacement = typeof name === 'string' ? LEFT_OUT[name] : undefined;
      if (replacement === undefined || prop.shorthand || prop.computed) continue;
      if (value.end - value.start < replacement.length) continue;
      blanks.push({ start: value.start, end: value.end, value: replacement });
    }
  });
  if (blanks.length === 0) return undefined;
  let out = '';
  let at = 0;
  for (const { start, end, value } of blanks.sort((a, b) => a.start - b.start)) {
    // A value's first characters are on its first line, so the replacement never covers a newline.
    const firstLine = code.slice(start, end).split('\n', 1)[0] as string;
    if (firstLine.length < value.length) continue;
    out += code.slice(at, start) + value + code.slice(start + value.length, end).replace(/[^\n]/g, ' ');
    at = end;
  }
  return out + code.slice(at);
}

/**
 * The contract as the browser needs it (docs/decisions/036). The web client sends requests without
 * checking them (the server does, and answers 400 naming the field) and parses only answers; the
 * summaries are for docs/api.md. So the build leaves both out of every action of packages/contract,
 * and the schemas only requests used (registration rules, the country list, request-only checks of
 * zod) are left out of the bundle with them. Type checking and the tests see the contract whole.
 */
export function contractForTheBrowser(): Plugin {
  return {
    name: 'portal-contract-for-the-browser',
    apply: 'build',
    transform(code, id) {
      if (!/\/packages\/contract\/src\/[^/]+\.ts$/.test(id) || id.endsWith('.test.ts') || !code.includes('action('))
        return;
      const out = withoutRequests(code, this.parse(code));
      return out === undefined ? undefined : { code: out, map: null };
    },
  };
}

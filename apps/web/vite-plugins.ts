// Build-time plugins of the web app: precompression (always) and a bundle report (ANALYZE=1 only).
// docs/decisions/025-precompressed-assets-and-page-budgets.md
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
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
 * Writes `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip, level 9) next to every compressible
 * file of the build, so the server answers each request from disk without compressing anything.
 * index.html too: the server injects the deployment's configuration into it and compresses that once.
 */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'portal-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    closeBundle() {
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
        writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
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

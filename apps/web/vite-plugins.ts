// Build-time plugins of the web app: precompression (always) and a bundle report (ANALYZE=1 only).
// docs/decisions/025-precompressed-assets-and-page-budgets.md, 054 (npm start's fast copies)
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
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
 * `npm start`'s brotli quality (docs/decisions/054): quality 5 costs ~1/50 of quality 11's time on
 * the build's files for copies ~9% larger; below 5 the copies grow faster than the time falls.
 */
const FAST_BROTLI_QUALITY = 5;

/**
 * How the copies are made: `release` (`npm run build`: brotli 11 and zopfli, what CI, the benches
 * and production serve) or `fast` (`npm start`: brotli 5 and zlib's gzip, in milliseconds instead of
 * seconds; docs/decisions/054).
 */
export type Compression = 'release' | 'fast';
export const COMPRESSIONS: readonly Compression[] = ['release', 'fast'];
/** Where the build records how its copies were made (under .vite, which the server never serves). */
export const COMPRESSION_RECORD = '.vite/compression.json';

/** The compression a build records in `dist`; undefined when it records none (not built, or built before the record). */
export function recordedCompression(dist: string): Compression | undefined {
  try {
    const { compression } = JSON.parse(readFileSync(join(dist, COMPRESSION_RECORD), 'utf8')) as {
      compression?: unknown;
    };
    return COMPRESSIONS.find((c) => c === compression);
  } catch {
    return undefined;
  }
}

async function compressedCopies(body: Buffer, compression: Compression): Promise<{ br: Buffer; gz: Buffer }> {
  const quality = compression === 'release' ? constants.BROTLI_MAX_QUALITY : FAST_BROTLI_QUALITY;
  const br = brotliCompressSync(body, {
    params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
  });
  const gz =
    compression === 'release'
      ? await gzipAsync(body, { numiterations: ZOPFLI_ITERATIONS })
      : gzipSync(body, { level: 9 });
  return { br, gz: Buffer.from(gz) };
}

/**
 * Writes `<file>.br` and `<file>.gz` next to every compressible file of the build, so the server
 * answers each request from disk without compressing anything. In a release build the brotli copy
 * is quality 11 and the gzip copy zopfli's: a deflate stream any gzip reader takes, 3-4% smaller than
 * zlib's best, paid once at build time (docs/decisions/039). index.html too: the server injects the
 * deployment's configuration into it and compresses that once. The build records which it made in
 * COMPRESSION_RECORD, so nothing measures or ships `npm start`'s copies for release ones.
 */
export function precompress(compression: Compression = 'release'): Plugin {
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
        const { br, gz } = await compressedCopies(body, compression);
        writeFileSync(`${file}.br`, br);
        writeFileSync(`${file}.gz`, gz);
      }
      mkdirSync(join(outDir, dirname(COMPRESSION_RECORD)), { recursive: true });
      writeFileSync(join(outDir, COMPRESSION_RECORD), `${JSON.stringify({ compression })}\n`);
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

/**
 * The icons of lucide-react's index (`lucide-react.mjs`): each exported name (`ChevronDown`,
 * `ChevronDownIcon`, `LucideChevronDown`) and the file under `icons/` that holds it.
 */
export function lucideIconFiles(index: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const [, names, file] of index.matchAll(/export \{([^}]*)\} from '\.\/icons\/([a-z0-9-]+)\.mjs';/g))
    for (const [, name] of (names as string).matchAll(/default as (\w+)/g)) files.set(name as string, file as string);
  return files;
}

/**
 * A module's `import { A, B as C } from 'lucide-react'` as one import of each icon's own file
 * (`import A from 'lucide-react/icons/a'`), on the statement's first line, its other lines left
 * empty so every later line stays where it was. Names that are not icons stay on the index.
 * Undefined when the module imports no icon.
 */
export function withIconImports(
  code: string,
  program: unknown,
  files: ReadonlyMap<string, string>,
): string | undefined {
  const edits: { start: number; end: number; text: string }[] = [];
  walk(program, (node) => {
    if (node.type !== 'ImportDeclaration' || (node.source as Node).value !== 'lucide-react') return;
    if (node.importKind === 'type') return;
    const own: string[] = [];
    const kept: string[] = [];
    for (const spec of node.specifiers as Node[]) {
      const imported = spec.imported as Node | undefined;
      const name = imported?.type === 'Identifier' ? (imported.name as string) : undefined;
      const local = (spec.local as Node).name as string;
      const file = spec.type === 'ImportSpecifier' && spec.importKind !== 'type' && name ? files.get(name) : undefined;
      if (file) own.push(`import ${local} from 'lucide-react/icons/${file}';`);
      else kept.push(code.slice(spec.start as number, spec.end as number));
    }
    if (own.length === 0) return;
    const rest = kept.length > 0 ? [`import { ${kept.join(', ')} } from 'lucide-react';`] : [];
    const [start, end] = [node.start as number, node.end as number];
    const lines = code.slice(start, end).split('\n').length;
    edits.push({ start, end, text: [...own, ...rest].join(' ') + '\n'.repeat(lines - 1) });
  });
  if (edits.length === 0) return undefined;
  let out = '';
  let at = 0;
  for (const { start, end, text } of edits.sort((a, b) => a.start - b.start)) {
    out += code.slice(at, start) + text;
    at = end;
  }
  return out + code.slice(at);
}

/**
 * lucide-react's icons imported file by file (docs/decisions/044). Through the index every module
 * that uses one icon seems to import all two thousand, so the page groups' module graph
 * (pageGroupOf) could not tell which page needs which icon; the bundle is the same either way.
 */
export function lucideIconImports(): Plugin {
  let files: Map<string, string> | undefined;
  return {
    name: 'portal-lucide-icon-imports',
    apply: 'build',
    transform(code, id) {
      if (id.includes('/node_modules/') || !/\.[jt]sx?($|\?)/.test(id) || !code.includes('lucide-react')) return;
      files ??= lucideIconFiles(
        readFileSync(
          join(dirname(createRequire(import.meta.url).resolve('lucide-react')), '../esm/lucide-react.mjs'),
          'utf8',
        ),
      );
      const out = withIconImports(code, this.parse(code), files);
      return out === undefined ? undefined : { code: out, map: null };
    },
  };
}

/** What page grouping reads of a module: rolldown's ModuleInfo, or a test's stand-in. */
export interface GraphModule {
  importedIds: readonly string[];
  dynamicallyImportedIds: readonly string[];
}

/** A route's split module that renders it (its component and loader), not its error screens. */
function isRenderingSplit(id: string): boolean {
  const split = /\?tsr-split=([^&]+)/.exec(id)?.[1];
  return split?.split('---').some((part) => part === 'component' || part === 'loader') ?? false;
}

/** The chunk groups of the signed-in start, in the order of their priority (see pageGroupOf). */
export const PAGE_GROUPS = ['common', 'public-shared', 'signed-in'] as const;
export type PageGroup = (typeof PAGE_GROUPS)[number];
/** The group whose chunk (with what it imports) a signed-in address starts with. */
export const SIGNED_IN_START_GROUP: PageGroup = 'signed-in';

/**
 * Chunk groups by page (docs/decisions/044). Of the modules the signed-in start reaches (the
 * `signedIn` route files' rendering modules, and `alsoLoads`), those the sign-in page (`signIn`)
 * reaches too go into one `common` chunk, those only other public pages (routes outside
 * `_authenticated`) reach too into one `public-shared` chunk, and the rest into one `signed-in`
 * chunk; modules the entry imports are left to the entry's group. A signed-in start then loads a
 * few scripts instead of forty, and the sign-in page what it loaded before. Answers a module's
 * group, or null (the default splitting).
 */
export function pageGroupOf(
  getModuleInfo: (id: string) => GraphModule | null,
  opts: {
    entry: string;
    routesDir: string;
    signedIn: readonly string[];
    signIn: readonly string[];
    alsoLoads: readonly string[];
  },
): (id: string) => PageGroup | null {
  const reach = (roots: Iterable<string>, dynamic: boolean): Set<string> => {
    const seen = new Set<string>();
    const stack = [...roots];
    for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
      if (seen.has(id)) continue;
      seen.add(id);
      const info = getModuleInfo(id);
      if (info) stack.push(...info.importedIds, ...(dynamic ? info.dynamicallyImportedIds : []));
    }
    return seen;
  };
  const fileOf = (id: string) => id.split('?')[0] as string;
  const splits = [...reach([opts.entry], true)].filter(
    (id) => fileOf(id).startsWith(opts.routesDir) && isRenderingSplit(id),
  );
  const of = (files: readonly string[]) => splits.filter((id) => files.includes(fileOf(id)));
  const signedInArea = `${opts.routesDir}_authenticated`;
  const initial = reach([opts.entry], false);
  const signInReach = reach(of(opts.signIn), false);
  const publicReach = reach(
    splits.filter((id) => !fileOf(id).startsWith(signedInArea)),
    false,
  );
  const groups = new Map<string, PageGroup>();
  for (const id of reach([...of(opts.signedIn), ...opts.alsoLoads], false))
    if (!initial.has(id))
      groups.set(id, signInReach.has(id) ? 'common' : publicReach.has(id) ? 'public-shared' : 'signed-in');
  return (id) => groups.get(id) ?? null;
}

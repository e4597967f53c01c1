// The docs say where things are; this keeps them true. Three checks:
// 1. every repository path docs/architecture.md names (in backticks or as a link) exists;
// 2. every reference to a decision record (the word decision or decisions, or decisions/, followed by three-digit
//    numbers, or a record's file name) in the code and the docs names a record that exists;
// 3. every record in docs/decisions starts with its title, then a Status line (accepted, superseded by NNN, amended by
//    NNN, ...) whose records exist, and a Date line (YYYY-MM-DD). STYLE.md habit 19.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const decisionsDir = join(root, 'docs/decisions');

// ---------------------------------------------------------------------------------------------------------------
// Paths

/** Where a path in docs/architecture.md may be relative to: the repository, or one of the code roots it names. */
const CODE_ROOTS = [
  '',
  'apps/server/src',
  'apps/web/src',
  'packages/contract/src',
  'packages/client/src',
  'apps/hub/src',
];
/** The spec map's columns, as its first line says: `contract` is packages/contract/src, and so on. */
const SPEC_MAP_COLUMNS: Record<string, string> = {
  contract: 'packages/contract/src',
  web: 'apps/web/src',
  server: 'apps/server/src',
};
const FILE_EXTENSION = /\.(ts|tsx|js|mjs|cjs|json|md|sql|sh|html|css|ya?ml|patch)$/;

interface NamedPath {
  /** as written, without an anchor */
  path: string;
  line: number;
  /** directories (relative to the repository) the path may be relative to, in order */
  roots: string[];
}

/** Replaces fenced code blocks by empty lines, so line numbers stay and a diagram's names are not read as paths. */
function withoutFences(markdown: string): string {
  let inFence = false;
  return markdown
    .split('\n')
    .map((line) => {
      if (/^\s*```/.test(line)) {
        inFence = !inFence;
        return '';
      }
      return inFence ? '' : line;
    })
    .join('\n');
}

/** Whether a directory exists at `dir` (relative to the repository). */
function isDir(dir: string): boolean {
  const full = join(root, dir);
  return existsSync(full) && statSync(full).isDirectory();
}

/**
 * Whether text in backticks is a path in the repository: no spaces or URL-ish characters, and either a file name with
 * a known extension, a directory (a trailing slash), or a first segment that is a directory of one of `roots`. So
 * `lib/dates.ts`, `routes/auth/` and `packages/client` are paths; `zod/mini`, `text/event-stream`, `/api/useraction`,
 * `@portal/client` and `robots.config` are not.
 */
function looksLikePath(text: string, roots: string[], dirExists: (dir: string) => boolean = isDir): boolean {
  if (!/^[\w.<>*-][\w./<>*-]*$/.test(text) || text.startsWith('/') || text.includes('..')) return false;
  if (FILE_EXTENSION.test(text) || text.endsWith('/')) return true;
  if (!text.includes('/')) return false;
  const first = text.split('/')[0]!;
  return roots.some((r) => dirExists(posix.join(r, first)));
}

/** The paths a markdown document names: in backticks, and as link targets (relative to the document's folder). */
function namedPaths(markdown: string, docDir: string, dirExists: (dir: string) => boolean = isDir): NamedPath[] {
  const found: NamedPath[] = [];
  let columns: string[] | undefined;
  withoutFences(markdown)
    .split('\n')
    .forEach((line, i) => {
      const lineNo = i + 1;
      // A table's header row names its columns; the spec map's say which root a cell is relative to.
      if (/^\|.*\|\s*$/.test(line) && !/^\|[\s|:-]+\|\s*$/.test(line)) {
        const cells = line.split('|').slice(1, -1);
        if (cells.some((c) => Object.hasOwn(SPEC_MAP_COLUMNS, c.trim())) && !line.includes('`'))
          columns = cells.map((c) => c.trim());
      } else if (!line.startsWith('|')) {
        columns = undefined;
      }
      const cellRoots = (column: number): string[] => {
        const root = columns?.[column] !== undefined ? SPEC_MAP_COLUMNS[columns[column]!] : undefined;
        return root === undefined ? CODE_ROOTS : [root, ''];
      };
      const cells = line.startsWith('|') ? line.split('|').slice(1, -1) : [line];
      cells.forEach((cell, column) => {
        const roots = line.startsWith('|') ? cellRoots(column) : CODE_ROOTS;
        for (const m of cell.matchAll(/`([^`]+)`/g)) {
          const text = m[1]!.replace(/#.*$/, '');
          if (looksLikePath(text, roots, dirExists)) found.push({ path: text, line: lineNo, roots });
        }
        for (const m of cell.matchAll(/\]\(([^)\s]+)\)/g)) {
          const target = m[1]!;
          if (/^[a-z]+:/i.test(target) || target.startsWith('#')) continue;
          found.push({ path: target.replace(/#.*$/, ''), line: lineNo, roots: [docDir] });
        }
      });
    });
  return found;
}

/** Whether `pattern` (a path relative to the repository; `*` and `<name>` stand for any part of a segment) exists. */
function pathExists(pattern: string): boolean {
  const segments = pattern
    .replace(/<[^>]+>/g, '*')
    .split('/')
    .filter(Boolean);
  let dirs = [root];
  for (const [i, segment] of segments.entries()) {
    const last = i === segments.length - 1;
    const next: string[] = [];
    for (const dir of dirs) {
      if (!segment.includes('*')) {
        const full = join(dir, segment);
        if (existsSync(full) && (last || statSync(full).isDirectory())) next.push(full);
        continue;
      }
      const re = new RegExp(`^${segment.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
      if (!existsSync(dir) || !statSync(dir).isDirectory()) continue;
      for (const name of readdirSync(dir)) {
        const full = join(dir, name);
        if (re.test(name) && (last || statSync(full).isDirectory())) next.push(full);
      }
    }
    dirs = next;
    if (dirs.length === 0) return false;
  }
  return pattern.endsWith('/') ? dirs.some((d) => statSync(d).isDirectory()) : dirs.length > 0;
}

/** The named paths that exist under none of their roots, as `line N: path`. */
function missingPaths(paths: NamedPath[]): string[] {
  return paths
    .filter(({ path, roots }) => !roots.some((r) => pathExists(posix.join(r, path))))
    .map(({ path, line }) => `line ${line}: ${path}`);
}

// ---------------------------------------------------------------------------------------------------------------
// Decision references

interface DecisionReference {
  /** the record's number, or its file name when the reference names one */
  record: string;
  line: number;
}

/**
 * References to decision records in a text: the word decision or decisions, or the folder decisions/, followed by
 * numbers (a list such as "032 and 033", "003, 026" or a range "044 to 046" names each), and a record's file name
 * (NNN-some-title.md, which must exist as written).
 */
function decisionReferences(text: string): DecisionReference[] {
  const refs: DecisionReference[] = [];
  text.split('\n').forEach((line, i) => {
    const lineNo = i + 1;
    // A number, not the start of a record's file name (`025-precompressed-...md` is read below).
    const number = String.raw`\d{3}(?!\d)(?!-[a-z])`;
    const separator = String.raw`(?:\s*,\s*|\s+and\s+|\s+to\s+|\s*-\s*(?=\d))`;
    const list = new RegExp(String.raw`\bdecisions?(?:\s+|/)(${number}(?:${separator}${number})*)`, 'gi');
    for (const m of line.matchAll(list)) {
      const all = new Set(m[1]!.match(/\d{3}/g)!.map(Number));
      for (const r of m[1]!.matchAll(/(\d{3})(?:\s+to\s+|\s*-\s*)(\d{3})/g)) {
        for (let n = Number(r[1]); n <= Number(r[2]); n++) all.add(n);
      }
      for (const n of all) refs.push({ record: String(n).padStart(3, '0'), line: lineNo });
    }
    for (const m of line.matchAll(/(?<![\w-])(\d{3}-[a-z0-9]+(?:-[a-z0-9]+)*\.md)\b/g)) {
      refs.push({ record: m[1]!, line: lineNo });
    }
  });
  return refs;
}

/** Whether a reference resolves: a number names a record, a file name is one. */
function resolves(record: string, files: string[]): boolean {
  return /^\d{3}$/.test(record) ? files.some((f) => f.startsWith(`${record}-`)) : files.includes(record);
}

const SCANNED = /\.(ts|tsx|js|mjs|cjs|json|md|sql|sh|html|css|ya?ml)$/;

/**
 * The code and docs to scan: tracked and new files (git's ignore rules leave out node_modules and build output), but
 * this file, whose tests below hold made-up references.
 */
function scannedFiles(): string[] {
  const out = execFileSync(
    'git',
    [
      'ls-files',
      '--cached',
      '--others',
      '--exclude-standard',
      '-z',
      'apps',
      'packages',
      'bench',
      'scripts',
      'docs',
      'README.md',
    ],
    { cwd: root, encoding: 'utf8' },
  );
  return out
    .split('\0')
    .filter(
      (f) =>
        SCANNED.test(f) &&
        !/(^|\/)(node_modules|dist|build)\//.test(f) &&
        f !== 'scripts/docs.test.ts' &&
        existsSync(join(root, f)),
    );
}

// ---------------------------------------------------------------------------------------------------------------
// Records

const STATUS = /^(accepted|superseded by (\d{3})|amended by (\d{3}(?:, \d{3})*))$/;

/** What is wrong with a record's head: its title, then (blank lines aside) a Status line and a Date line. */
function recordProblems(fileName: string, text: string, files: string[]): string[] {
  const problems: string[] = [];
  const own = fileName.slice(0, 3);
  const lines = text.split('\n');
  if (!new RegExp(`^# ${own}\\b`).test(lines[0] ?? '')) problems.push(`the first line is not its title "# ${own} ..."`);
  const head = lines.slice(1).filter((l) => l.trim() !== '');
  const field = (name: string): string | undefined => {
    const line = head.slice(0, 2).find((l) => new RegExp(`^(\\*\\*)?${name}:`).test(l));
    return line?.replace(new RegExp(`^(\\*\\*)?${name}:(\\*\\*)?\\s*`), '').trim();
  };
  const status = field('Status');
  const date = field('Date');
  if (status === undefined) problems.push('no "Status:" line right under the title');
  else if (!STATUS.test(status)) {
    problems.push(`Status "${status}" is none of: accepted, superseded by NNN, amended by NNN[, NNN...]`);
  } else {
    for (const n of status.match(/\d{3}/g) ?? []) {
      if (!resolves(n, files)) problems.push(`Status names record ${n}, which does not exist`);
      else if (n <= own) problems.push(`Status names record ${n}, which is not later than ${own}`);
    }
  }
  if (date === undefined) problems.push('no "Date:" line right under the title');
  else if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) problems.push(`Date "${date}" is not a date YYYY-MM-DD`);
  else {
    const [y, m, d] = date.split('-').map(Number);
    const day = new Date(Date.UTC(y!, m! - 1, d!));
    if (day.getUTCFullYear() !== y || day.getUTCMonth() !== m! - 1 || day.getUTCDate() !== d) {
      problems.push(`Date "${date}" is not a day of the calendar`);
    }
  }
  return problems;
}

function recordFiles(): string[] {
  return readdirSync(decisionsDir)
    .filter((f) => f.endsWith('.md'))
    .sort();
}

// ---------------------------------------------------------------------------------------------------------------

describe('docs/architecture.md', () => {
  it('names only paths that exist', () => {
    const text = readFileSync(join(root, 'docs/architecture.md'), 'utf8');
    const paths = namedPaths(text, 'docs');
    expect(paths.length).toBeGreaterThan(100);
    expect(missingPaths(paths)).toEqual([]);
  });
});

describe('decision references', () => {
  it('name records that exist, in the code and the docs', () => {
    const files = recordFiles();
    const broken: string[] = [];
    let count = 0;
    for (const file of scannedFiles()) {
      for (const ref of decisionReferences(readFileSync(join(root, file), 'utf8'))) {
        count++;
        if (!resolves(ref.record, files)) broken.push(`${file}:${ref.line}: ${ref.record}`);
      }
    }
    expect(count).toBeGreaterThan(100);
    expect(broken).toEqual([]);
  });
});

describe('docs/decisions', () => {
  it('holds records named NNN-title.md, one per number', () => {
    const files = readdirSync(decisionsDir);
    expect(files.filter((f) => !/^\d{3}-[a-z0-9]+(-[a-z0-9]+)*\.md$/.test(f))).toEqual([]);
    const sharingANumber = files.filter((f) => files.some((g) => g !== f && g.slice(0, 3) === f.slice(0, 3)));
    expect(sharingANumber).toEqual([]);
  });

  it('gives every record a Status and a Date right under its title', () => {
    const files = recordFiles();
    const problems = files.flatMap((f) =>
      recordProblems(f, readFileSync(join(decisionsDir, f), 'utf8'), files).map((p) => `${f}: ${p}`),
    );
    expect(problems).toEqual([]);
  });
});

// The checks themselves, on small texts (the scan of check 2 leaves this file out: these are not references).
describe('the extraction', () => {
  const dirs = new Set(['apps', 'packages', 'docs', 'apps/web/src/lib', 'packages/contract/src/domain']);
  const dirExists = (d: string) => dirs.has(d);

  it.each([
    ['lib/dates.ts', true],
    ['routes/auth/', true],
    ['packages/client', true],
    ['apps/hub', true],
    ['zod/mini', false],
    ['text/event-stream', false],
    ['/api/useraction', false],
    ['@portal/client', false],
    ['robots.config', false],
    ['modules/<service>/<service>.routes.ts', true],
    ['cli.ts lifecycle:run', false],
  ])('%s is a path: %s', (text, expected) => {
    expect(looksLikePath(text, CODE_ROOTS, dirExists)).toBe(expected);
  });

  it('reads a spec map cell against its column, and links against the document', () => {
    const md = [
      '| section | contract | web | server |',
      '|---|---|---|---|',
      '| §9 | `domain/money.ts` | `lib/dates.ts` | |',
      '',
      'See [the record](decisions/001-x.md#y) and `lib/dates.ts`.',
    ].join('\n');
    expect(namedPaths(md, 'docs', dirExists)).toEqual([
      { path: 'domain/money.ts', line: 3, roots: ['packages/contract/src', ''] },
      { path: 'lib/dates.ts', line: 3, roots: ['apps/web/src', ''] },
      { path: 'lib/dates.ts', line: 5, roots: CODE_ROOTS },
      { path: 'decisions/001-x.md', line: 5, roots: ['docs'] },
    ]);
  });

  it('finds a missing path', () => {
    expect(missingPaths([{ path: 'domain/nowhere.ts', line: 7, roots: ['packages/contract/src'] }])).toEqual([
      'line 7: domain/nowhere.ts',
    ]);
  });

  it('reads every number of a reference', () => {
    const text = [
      'decisions 003, 026 and 032',
      'Decisions 044 to 046',
      "see decision 050's figures",
      'docs/decisions/019: and docs/decisions/002-sessions.md',
      'spec/001 §4, issue 13, decision 5',
      '(docs/decisions/024, 050)',
    ].join('\n');
    expect(decisionReferences(text)).toEqual([
      { record: '003', line: 1 },
      { record: '026', line: 1 },
      { record: '032', line: 1 },
      { record: '044', line: 2 },
      { record: '046', line: 2 },
      { record: '045', line: 2 },
      { record: '050', line: 3 },
      { record: '019', line: 4 },
      { record: '002-sessions.md', line: 4 },
      { record: '024', line: 6 },
      { record: '050', line: 6 },
    ]);
    expect(resolves('002-sessions.md', ['002-sessions.md'])).toBe(true);
    expect(resolves('002', ['002-sessions-and-more.md'])).toBe(true);
    expect(resolves('002-old-name.md', ['002-sessions.md'])).toBe(false);
  });

  it.each([
    ['Status: accepted\nDate: 2026-11-22', []],
    ['**Status:** superseded by 002\n**Date:** 2026-11-22', []],
    ['Status: amended by 002, 003\nDate: 2026-11-22', []],
    [
      'Status: Accepted\nDate: 2026-11-22',
      ['Status "Accepted" is none of: accepted, superseded by NNN, amended by NNN[, NNN...]'],
    ],
    ['Status: superseded by 009\nDate: 2026-11-22', ['Status names record 009, which does not exist']],
    ['Status: accepted\nDate: 22 November 2026', ['Date "22 November 2026" is not a date YYYY-MM-DD']],
    ['Status: accepted\nDate: 2026-02-30', ['Date "2026-02-30" is not a day of the calendar']],
    ['Some context first.\n\nStatus: accepted\nDate: 2026-11-22', ['no "Date:" line right under the title']],
  ])('a record whose head is %j', (head, problems) => {
    const files = ['001-a.md', '002-b.md', '003-c.md'];
    expect(recordProblems('001-a.md', `# 001 A\n\n${head}\n\nBody.\n`, files)).toEqual(problems);
  });
});

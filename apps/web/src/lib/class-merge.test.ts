import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { extendTailwindMerge } from 'tailwind-merge';
import { describe, expect, it } from 'vitest';
import { mergeClasses } from './class-merge';

/** tailwind-merge itself, without its cache of results (which only slows a run of unique inputs). */
const twMerge = extendTailwindMerge({ cacheSize: 0 });

/** Input, then what tailwind-merge makes of it (each row is also checked against tailwind-merge). */
const CASES: [string, string][] = [
  ['', ''],
  ['  px-2   py-1 ', 'px-2 py-1'],
  ['px-2 px-4', 'px-4'],
  ['p-2 px-4', 'p-2 px-4'],
  ['px-4 p-2', 'p-2'],
  ['pl-3 pr-4 px-2', 'px-2'],
  ['ps-2 px-4', 'px-4'],
  ['pt-2 px-4', 'pt-2 px-4'],
  ['mt-2 my-4 -mt-1', 'my-4 -mt-1'],
  ['-m-2 m-4', 'm-4'],
  ['text-sm text-lg', 'text-lg'],
  ['text-sm text-red-500', 'text-sm text-red-500'],
  ['text-red-500 text-muted-foreground/70', 'text-muted-foreground/70'],
  ['text-[11px] text-sm', 'text-sm'],
  ['text-[#fff] text-sm', 'text-[#fff] text-sm'],
  ['text-left text-center text-sm', 'text-center text-sm'],
  ['truncate text-ellipsis', 'text-ellipsis'],
  ['leading-tight text-sm', 'text-sm'],
  ['text-sm leading-tight', 'text-sm leading-tight'],
  ['bg-primary bg-muted/50', 'bg-muted/50'],
  ['bg-(--x) bg-red-500', 'bg-red-500'],
  ['border border-2', 'border-2'],
  ['border-2 border-primary', 'border-2 border-primary'],
  ['border-b border-x border-0', 'border-0'],
  ['border-l border-x', 'border-x'],
  ['border-t border-x', 'border-t border-x'],
  ['border-(--success) border-primary', 'border-primary'],
  ['border-[3px] border-2', 'border-2'],
  ['border-solid border-dashed border-collapse', 'border-dashed border-collapse'],
  ['rounded rounded-lg', 'rounded-lg'],
  ['rounded-r-md rounded-[4px]', 'rounded-[4px]'],
  ['rounded-md rounded-r-none', 'rounded-md rounded-r-none'],
  ['w-4 h-4 size-6', 'size-6'],
  ['size-6 w-4', 'size-6 w-4'],
  ['w-[3px] w-full', 'w-full'],
  ['w-(--sidebar-width) w-3/4', 'w-3/4'],
  ['max-w-md max-w-[calc(100%-2rem)]', 'max-w-[calc(100%-2rem)]'],
  ['top-0 left-2 inset-0', 'inset-0'],
  ['left-0 start-0 inset-x-0 top-2', 'inset-x-0 top-2'],
  ['-translate-x-1/2 translate-x-px', 'translate-x-px'],
  ['block flex', 'flex'],
  ['hidden md:flex flex', 'md:flex flex'],
  ['grid inline-flex', 'inline-flex'],
  ['block line-clamp-2', 'line-clamp-2'],
  ['flex flex-1 flex-col flex-wrap', 'flex flex-1 flex-col flex-wrap'],
  ['shrink-0 grow flex-1', 'flex-1'],
  ['absolute relative', 'relative'],
  ['overflow-x-auto overflow-hidden', 'overflow-hidden'],
  ['font-bold font-mono', 'font-bold font-mono'],
  ['font-medium font-semibold', 'font-semibold'],
  ['font-[Inter] font-bold', 'font-bold'],
  ['gap-2 gap-x-4', 'gap-2 gap-x-4'],
  ['gap-x-4 gap-y-1 gap-2', 'gap-2'],
  ['shadow shadow-sm shadow-primary', 'shadow-sm shadow-primary'],
  ['shadow-(--x) shadow-lg', 'shadow-lg'],
  ['ring ring-2 ring-primary/40', 'ring-2 ring-primary/40'],
  ['outline-2 outline-none outline-hidden', 'outline-2 outline-hidden'],
  ['opacity-50 opacity-[.3]', 'opacity-[.3]'],
  ['italic not-italic', 'not-italic'],
  ['underline no-underline underline-offset-4', 'no-underline underline-offset-4'],
  ['stroke-2 stroke-primary stroke-border', 'stroke-2 stroke-border'],
  ['list-disc list-[lower-alpha] list-inside', 'list-[lower-alpha] list-inside'],
  ['object-contain object-center object-cover', 'object-center object-cover'],
  ['tabular-nums normal-nums', 'normal-nums'],
  ['hover:bg-accent hover:bg-muted bg-card', 'hover:bg-muted bg-card'],
  ['hover:px-2 px-4', 'hover:px-2 px-4'],
  ['md:p-6 md:px-4 p-2', 'md:p-6 md:px-4 p-2'],
  ['md:px-4 md:p-6', 'md:p-6'],
  ['dark:text-amber-300 dark:text-amber-400', 'dark:text-amber-400'],
  [
    'data-[state=open]:p-1 data-[state=open]:p-2 data-[state=closed]:p-3',
    'data-[state=open]:p-2 data-[state=closed]:p-3',
  ],
  ['group-data-[collapsible=icon]:hidden group-data-[collapsible=icon]:block', 'group-data-[collapsible=icon]:block'],
  ['hover:focus:p-2 focus:hover:p-4', 'focus:hover:p-4'],
  ['[&>svg]:hover:p-1 hover:[&>svg]:p-2', '[&>svg]:hover:p-1 hover:[&>svg]:p-2'],
  ['[&>svg]:size-3 [&>svg]:size-4', '[&>svg]:size-4'],
  ['before:hover:p-1 hover:before:p-2', 'before:hover:p-1 hover:before:p-2'],
  ['h-5! h-6', 'h-5! h-6'],
  ['!h-5 h-5!', 'h-5!'],
  ['hover:p-2! hover:!p-4 p-1', 'hover:!p-4 p-1'],
  ['[mask-type:luminance] [mask-type:alpha] [--x:1px]', '[mask-type:alpha] [--x:1px]'],
  ['group peer card-title group', 'group peer card-title group'],
  ['top-right top-0', 'top-right top-0'],
  ['p-2 p-2', 'p-2'],
];

describe('mergeClasses', () => {
  it.each(CASES)('%j is %j', (input, expected) => {
    expect(mergeClasses(input)).toBe(expected);
    expect(twMerge(input)).toBe(expected);
  });
});

const SRC = join(import.meta.dirname, '..');

/** Source files of the app (not tests, not generated, not the merger's own table). */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test' ? [] : sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.|\.gen\.|class-merge/.test(entry.name) ? [path] : [];
  });
}

const VARIANT = String.raw`(?:\*|[a-z@][\w-]*(?:-?\[[^\]\s]+\])?(?:\/[\w-]+)?|\[[^\]\s]+\]):`;
const UTILITY = String.raw`!?-?(?:[a-z][a-z\d]*(?:-[\w.]+|-?\[[^\]\s]+\]|-\([^)\s]+\))*|\[[a-z-]+:[^\]\s]+\])(?:\/(?:[\w.]+|\[[^\]\s]+\]))?!?`;
/** What a Tailwind class looks like: variants, then a utility. */
const CLASS = new RegExp(`^(?:${VARIANT})*${UTILITY}$`);

/**
 * Every class token the app writes: string literals (className, cn(), cva() variants, constants)
 * whose every word looks like a Tailwind class and one at least has a dash, colon or bracket, so
 * that prose and single words (`email`) stay out; single words given to className= are in.
 */
function corpus(): string[] {
  const tokens = new Set<string>();
  for (const file of sources(SRC)) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(className=\{?)?(?:'([^'\n]*)'|"([^"\n]*)"|`([^`]*)`)/g)) {
      const words = (m[2] ?? m[3] ?? m[4] ?? '')
        .replace(/\$\{[^}]*\}/g, ' ')
        .split(/\s+/)
        .filter(Boolean);
      if (words.length && words.every((w) => CLASS.test(w)) && (m[1] || words.some((w) => /[-:[]/.test(w))))
        for (const w of words) tokens.add(w);
    }
  }
  return [...tokens].sort();
}

/** A token's utility, less its variants, important mark and sign. */
const utilityOf = (token: string) => (token.split(/:(?![^[(]*[\])])/).pop() as string).replace(/^!?-?|!$/g, '');

/**
 * Which pairs could interact. tailwind-merge merges two classes of one group, or of two groups where
 * one sets what the other does. Two such classes share their first word once sides, axes and
 * parts are folded (px and pt are p, top and start are inset, w and h are size, basis is flex,
 * leading is text, line-clamp is overflow), or both are keyword utilities, whose group may be named
 * by any word (block and hidden are displays, truncate and text-ellipsis text overflows). The test
 * pairs those, in both orders; CLASS_MERGE_ALL_PAIRS=1 pairs every token with every other (about
 * 640,000 pairs, 4 s), which found nothing more when this was written.
 */
function family(token: string): string {
  const first = utilityOf(token).split(/-(?![^[(]*[\])])/)[0]!;
  if (/^([pm])[xysetrbl]$/.test(first)) return first.charAt(0);
  if (/^(top|right|bottom|left|start|end)$/.test(first)) return 'inset';
  if (/^[wh]$/.test(first)) return 'size';
  if (/^(basis|grow|shrink)$/.test(first)) return 'flex';
  if (first === 'leading') return 'text';
  if (first === 'line') return 'overflow';
  return first;
}
const KEYWORD =
  /^([a-z]+|(inline|table|list|flow|not|no|line|subpixel|isolation)-.*|[a-z]+-(only|nums|fractions|zero)|text-(ellipsis|clip))$/;

describe('mergeClasses on the classes the app writes', () => {
  const tokens = corpus();

  it('finds the app’s classes', () => {
    expect(tokens.length).toBeGreaterThan(400);
    expect(tokens).toEqual(
      expect.arrayContaining(['px-4', 'hover:bg-accent', '[&>svg]:size-4', 'sr-only', 'relative']),
    );
  });

  it('merges every pair of them that could interact as tailwind-merge does', () => {
    const groups = new Map<string, string[]>();
    for (const t of tokens) {
      const key = process.env.CLASS_MERGE_ALL_PAIRS ? '' : KEYWORD.test(utilityOf(t)) ? 'keyword' : family(t);
      groups.set(key, [...(groups.get(key) ?? []), t]);
    }
    for (const t of groups.get('keyword') ?? []) groups.get(family(t))?.push(t);
    const inputs = new Set([
      ...tokens,
      ...[...groups.values()].flatMap((group) => group.flatMap((a) => group.map((b) => `${a} ${b}`))),
      ...tokens.flatMap((a) => [`hover:${a} ${a}`, `${a} hover:${a}`, `md:${a} ${a}`, `${a} md:${a}`]),
    ]);
    const mismatches = [...inputs]
      .map((input) => ({ input, ours: mergeClasses(input), twMerge: twMerge(input) }))
      .filter((r) => r.ours !== r.twMerge);
    expect(mismatches).toEqual([]);
  });
});

import * as z from 'zod/mini';

/**
 * Rules every request of the contract obeys, whatever its fields (docs/decisions/027): text holds no
 * NUL character and no lone UTF-16 surrogate (PostgreSQL stores neither, and a lone surrogate is not
 * Unicode), and no value is nested deeper than MAX_INPUT_DEPTH. `action()` adds them to every request
 * schema, so a new action has them the day it is written, on the server and in the client alike.
 */

/** How deep any request may nest objects and arrays; the deepest real request is about 5 levels. */
export const MAX_INPUT_DEPTH = 32;
/** How deep a free-form JSON field (robot_config) may nest. */
export const MAX_JSON_DEPTH = 8;
/** The largest robot_config a robot may hold, as UTF-8 JSON: what one UPDATEROBOT sends and what the merge keeps. */
export const MAX_ROBOT_CONFIG_BYTES = 16 * 1024;

export const TEXT_RULES = {
  nul: 'must not contain NUL characters',
  surrogate: 'must be valid Unicode (no lone surrogates)',
} as const;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** What is wrong with a piece of text under the rules every request obeys; undefined when nothing. */
export function textIssue(text: string): string | undefined {
  if (text.includes('\u0000')) return TEXT_RULES.nul;
  if (LONE_SURROGATE.test(text)) return TEXT_RULES.surrogate;
  return undefined;
}

export interface InputIssue {
  path: (string | number)[];
  message: string;
}

/** A key as a path segment a reader can quote: a key that breaks the text rules is shown escaped. */
function keySegment(key: string): string {
  return textIssue(key)
    ? JSON.stringify(key)
        .slice(1, -1)
        .replace(/\\u0000/g, '\\0')
    : key;
}

/**
 * The issues of a whole value: text (in values and in keys) that breaks the rules, and nesting
 * deeper than `maxDepth`. Iterative, so a value nested thousands of levels costs no stack; stops
 * after `limit` issues.
 */
export function inputIssues(value: unknown, maxDepth = MAX_INPUT_DEPTH, limit = 5): InputIssue[] {
  const issues: InputIssue[] = [];
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value, path: [] }];
  while (stack.length > 0 && issues.length < limit) {
    const { value: v, path } = stack.pop() as { value: unknown; path: (string | number)[] };
    if (typeof v === 'string') {
      const issue = textIssue(v);
      if (issue) issues.push({ path, message: issue });
      continue;
    }
    if (!v || typeof v !== 'object') continue;
    if (path.length >= maxDepth) {
      issues.push({ path, message: `must not nest deeper than ${maxDepth} levels` });
      continue;
    }
    const entries: [string | number, unknown][] = Array.isArray(v)
      ? v.map((item, i) => [i, item])
      : Object.entries(v as Record<string, unknown>);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, item] = entries[i] as [string | number, unknown];
      if (typeof key === 'string') {
        const issue = textIssue(key);
        if (issue) {
          issues.push({ path: [...path, keySegment(key)], message: `key ${issue}` });
          continue;
        }
      }
      stack.push({ value: item, path: [...path, key] });
    }
  }
  return issues;
}

/** Adds the rules every request obeys to a request schema (called by `action()`). */
export function withInputRules<S extends z.ZodMiniType>(schema: S): S {
  return schema.check(
    z.superRefine((value, ctx) => {
      for (const issue of inputIssues(value))
        ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    }),
  );
}

/** Whether a value nests objects or arrays deeper than `max` levels (iterative: no stack for deep values). */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [unknown, number];
    if (!v || typeof v !== 'object') continue;
    if (depth >= max) return true;
    for (const item of Array.isArray(v) ? v : Object.values(v)) stack.push([item, depth + 1]);
  }
  return false;
}

/** UTF-8 size of a value as JSON. */
export function jsonBytes(value: unknown): number {
  return new TextEncoder().encode(JSON.stringify(value)).length;
}

/**
 * A free-form JSON object (robot_config): at most MAX_JSON_DEPTH deep and `maxBytes` as UTF-8 JSON,
 * so one call cannot store megabytes or a structure PostgreSQL cannot nest.
 */
export function boundedJsonObject(maxBytes: number) {
  return z.record(z.string(), z.unknown()).check(
    z.superRefine((value, ctx) => {
      if (nestsDeeperThan(value, MAX_JSON_DEPTH)) {
        ctx.addIssue({ code: 'custom', message: `must not nest deeper than ${MAX_JSON_DEPTH} levels` });
        return;
      }
      const size = jsonBytes(value);
      if (size > maxBytes)
        ctx.addIssue({ code: 'custom', message: `must be at most ${maxBytes} bytes as JSON (this is ${size})` });
    }),
  );
}

import type { SearchSchemaInput } from '@tanstack/react-router';

/**
 * Readers of address parameters for routes' `validateSearch`. A route's search validation runs in
 * the entry of every page, so these are plain functions rather than zod schemas: the sign-in page
 * loads no schema library (docs/decisions/025). Each answers undefined (or a fallback) for a value
 * it cannot use, so a bad link still opens a working page.
 */

/** One of `values`, else undefined. */
export function oneOf<const T extends string>(values: readonly T[], value: unknown): T | undefined {
  return values.find((v) => v === value);
}

/** A string of `min`..`max` characters (after trimming when `trim`), else undefined. */
export function text(value: unknown, { min = 0, max, trim = false }: { min?: number; max: number; trim?: boolean }) {
  if (typeof value !== 'string') return undefined;
  const v = trim ? value.trim() : value;
  return v.length >= min && v.length <= max ? v : undefined;
}

/** A whole number (or a string of one, as an address gives it) of at least `min`, else undefined. */
export function intAtLeast(value: unknown, min: number): number | undefined {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n >= min ? n : undefined;
}

/** The object without its undefined values, as an address would carry it. */
export function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/**
 * A route's `validateSearch` from a reader of the raw parameters. Links type their `search` as the
 * parsed shape with every key optional (what zod's `.default()` and `.catch()` gave), and the
 * reader gets whatever the address held. `read` is the same reader, typed for any input (tests).
 */
export function searchParser<T extends object>(read: (raw: Record<string, unknown>) => T) {
  return { parse: (raw: Partial<T> & SearchSchemaInput): T => read(raw as Record<string, unknown>), read };
}

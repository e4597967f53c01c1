/** One build `npm start` may run (scripts/build-stamps.mjs). */
export interface Build {
  name: string;
  /** the npm workspace whose `build` script runs it */
  workspace: string;
  /** the folder it writes, emptied first */
  dist: string;
  /** files and folders it reads, from the repository's root */
  inputs: string[];
  /** the environment variables its output depends on */
  variables(env: NodeJS.ProcessEnv): [string, string | undefined][];
  /** what `npm start` sets for it */
  env: Record<string, string>;
}
export const ROOT: string;
export const STAMP_FILE: string;
export const BUILDS: Build[];
export function inputsHash(build: Build, env?: NodeJS.ProcessEnv, root?: string): string;
export function upToDate(build: Build, hash: string, root?: string): boolean;
export function writeStamp(build: Build, hash: string, root?: string): void;

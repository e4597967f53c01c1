// The task each hashing thread runs (lib/hash-workers.ts hands it jobs through piscina). Plain
// JavaScript, so the same file runs beside the TypeScript sources (tsx, vitest) and beside the bundle
// (build.mjs copies it into dist/), on every Node the portal supports.
import { hashSync, verifySync } from '@node-rs/argon2';

/**
 * One job, answered rather than thrown: a hash that cannot be read is the job's answer, so that a
 * failed promise on the main thread always means the thread itself failed.
 * @param {{ op: 'hash', password: string, options: import('@node-rs/argon2').Options } | { op: 'verify', hash: string, password: string }} job
 * @returns {{ value: string | boolean } | { error: string }}
 */
export default function hashJob(job) {
  try {
    return { value: job.op === 'hash' ? hashSync(job.password, job.options) : verifySync(job.hash, job.password) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

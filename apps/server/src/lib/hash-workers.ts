import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Options } from '@node-rs/argon2';

/**
 * Password hashes run on threads of their own, one hash at a time each (docs/decisions/050). A
 * hasher is handed its next hash while it still works on the one before, so it starts that one the
 * moment it is free: when the hash ran on libuv's pool, the next one started only once the event
 * loop had taken the finished one's answer and let the next caller through the gate, and the hashing
 * core sat idle for as long as the loop was busy with other requests.
 */

/** What one hasher holds at most: the hash it works on and the next one. */
export const HANDED_AHEAD = 2;

export type HashJob =
  | { op: 'hash'; password: string; options: Options }
  | { op: 'verify'; hash: string; password: string };

/** The hasher's code, evaluated as CommonJS in the thread: argon2 is loaded from the path the portal resolved. */
const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const argon2 = require(workerData.argon2);
parentPort.on('message', (job) => {
  try {
    const value = job.op === 'hash' ? argon2.hashSync(job.password, job.options) : argon2.verifySync(job.hash, job.password);
    parentPort.postMessage({ id: job.id, value });
  } catch (error) {
    parentPort.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error) });
  }
});
`;

/** A job failed because its thread stopped, not because of the hash: the caller's answer is a server error. */
export class HasherGone extends Error {}

const argon2Path = createRequire(import.meta.url).resolve('@node-rs/argon2');

interface Pending {
  resolve: (value: string | boolean) => void;
  reject: (error: Error) => void;
}

class Hasher {
  readonly pending = new Map<number, Pending>();
  private readonly worker: Worker;
  constructor(onGone: (hasher: Hasher) => void) {
    this.worker = new Worker(SOURCE, { eval: true, workerData: { argon2: argon2Path } });
    // An idle hasher does not keep the process alive; one with work does (a script awaiting a hash).
    this.worker.unref();
    this.worker.on('message', (answer: { id: number; value?: string | boolean; error?: string }) => {
      const job = this.pending.get(answer.id);
      if (!job) return;
      this.pending.delete(answer.id);
      if (this.pending.size === 0) this.worker.unref();
      if (answer.error === undefined) job.resolve(answer.value as string | boolean);
      else job.reject(new Error(answer.error));
    });
    const gone = (error: HasherGone) => {
      for (const job of this.pending.values()) job.reject(error);
      this.pending.clear();
      onGone(this);
    };
    this.worker.on('error', (error) => gone(new HasherGone(`the hashing thread failed: ${error.message}`)));
    this.worker.on('exit', (code) => gone(new HasherGone(`the hashing thread stopped (exit code ${code})`)));
  }

  send(id: number, job: HashJob, pending: Pending): void {
    if (this.pending.size === 0) this.worker.ref();
    this.pending.set(id, pending);
    this.worker.postMessage({ id, ...job });
  }

  async stop(): Promise<void> {
    await this.worker.terminate();
  }
}

/**
 * Up to `threads` hashers, started when first needed. Each job goes to the hasher holding the
 * fewest; the gate in front (lib/passwords.ts) lets at most `threads * HANDED_AHEAD` through, so no
 * hasher holds more than HANDED_AHEAD and no more than `threads` hashes run at once.
 */
export class HashWorkers {
  private readonly hashers: Hasher[] = [];
  private nextId = 0;
  private retired = false;
  constructor(readonly threads: number) {}

  /** Threads started and the jobs each holds (for tests). */
  get holding(): number[] {
    return this.hashers.map((h) => h.pending.size);
  }

  run(job: HashJob): Promise<string | boolean> {
    return new Promise<string | boolean>((resolve, reject) => {
      this.pick().send(this.nextId++, job, { resolve, reject });
    }).finally(() => {
      if (this.retired) this.stopIdle();
    });
  }

  /** Stops every thread now; the jobs they hold fail with HasherGone, and a later job starts a new thread. */
  async close(): Promise<void> {
    await Promise.all(this.hashers.splice(0).map((h) => h.stop()));
  }

  /** No new work comes: idle threads stop now, busy ones when their last job is answered. */
  retire(): void {
    this.retired = true;
    this.stopIdle();
  }

  private pick(): Hasher {
    let best: Hasher | undefined;
    for (const h of this.hashers) if (!best || h.pending.size < best.pending.size) best = h;
    if (best && (best.pending.size === 0 || this.hashers.length >= this.threads)) return best;
    const started = new Hasher((gone) => {
      const at = this.hashers.indexOf(gone);
      if (at >= 0) this.hashers.splice(at, 1);
    });
    this.hashers.push(started);
    return started;
  }

  private stopIdle(): void {
    for (const h of [...this.hashers]) {
      if (h.pending.size > 0) continue;
      this.hashers.splice(this.hashers.indexOf(h), 1);
      void h.stop();
    }
  }
}

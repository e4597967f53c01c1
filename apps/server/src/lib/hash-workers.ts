import type { Options } from '@node-rs/argon2';
import { Piscina } from 'piscina';

/**
 * Password hashes run on threads of their own, one hash at a time each (docs/decisions/050), in a
 * piscina pool (docs/decisions/053). A thread is handed its next hash while it still works on the
 * one before, so it starts that one the moment it is free: when the hash ran on libuv's pool, the
 * next one started only once the event loop had taken the finished one's answer and let the next
 * caller through the gate, and the hashing core sat idle for as long as the loop was busy.
 */

/** What one thread holds at most: the hash it works on and the next one. */
export const HANDED_AHEAD = 2;

export type HashJob =
  | { op: 'hash'; password: string; options: Options }
  | { op: 'verify'; hash: string; password: string };

/** What the thread's task answers (lib/hash-worker.mjs): a job's own failure is an answer, not a throw. */
type Answer = { value: string | boolean } | { error: string };

/** A job failed because its thread stopped, not because of the hash: the caller's answer is a server error. */
export class HasherGone extends Error {}

/** The thread's task: beside this file in the sources, beside dist/server.js in the bundle (build.mjs copies it). */
const TASK = new URL('./hash-worker.mjs', import.meta.url).href;

/** What piscina tells of one of its threads (its 'workerCreate' event). */
interface Thread {
  readonly currentUsage: number;
  readonly destroyed: boolean;
}

/**
 * `threads` hashing threads, started together when first needed. piscina hands a job to the thread
 * holding the fewest, up to HANDED_AHEAD each; the gate in front (lib/passwords.ts) lets at most
 * `threads * HANDED_AHEAD` through, so nothing waits inside the pool and no more than `threads`
 * hashes run at once.
 */
export class HashWorkers {
  private pool: Piscina<HashJob, Answer> | undefined;
  private started: Thread[] = [];
  private inFlight = 0;
  private retired = false;
  constructor(readonly threads: number) {}

  /** Threads started and the jobs each holds (for tests; piscina names a thread a microtask after starting it). */
  get holding(): number[] {
    return this.started.filter((t) => !t.destroyed).map((t) => t.currentUsage);
  }

  /** The pool's threads (for tests that stop one). */
  get workers() {
    return this.pool?.threads ?? [];
  }

  run(job: HashJob): Promise<string | boolean> {
    this.pool ??= this.start();
    const pool = this.pool;
    this.inFlight += 1;
    return pool
      .run(job)
      .then(
        (answer) => {
          if ('error' in answer) throw new Error(answer.error);
          return answer.value;
        },
        (error: Error) => {
          throw new HasherGone(`the hashing thread failed: ${error.message}`, { cause: error });
        },
      )
      .finally(() => {
        this.inFlight -= 1;
        if (this.retired && this.inFlight === 0) void this.stop();
      });
  }

  /** Stops every thread now; the jobs they hold fail with HasherGone, and a later job starts new threads. */
  close(): Promise<void> {
    return this.stop();
  }

  /** No new work comes: the threads stop now if idle, or when the last job is answered. */
  retire(): void {
    this.retired = true;
    if (this.inFlight === 0) void this.stop();
  }

  private start(): Piscina<HashJob, Answer> {
    const pool = new Piscina<HashJob, Answer>({
      filename: TASK,
      minThreads: this.threads,
      maxThreads: this.threads,
      idleTimeout: Number.POSITIVE_INFINITY,
      concurrentTasksPerWorker: HANDED_AHEAD,
      // With Atomics a thread takes every job waiting for it at once and answers the first only when
      // the second is hashed too; with messages it answers each as it ends (decision 053).
      atomics: 'disabled',
      recordTiming: false,
    });
    this.started = [];
    pool.on('workerCreate', (thread: Thread) => {
      if (this.pool === pool) this.started.push(thread);
    });
    pool.on('workerDestroy', () => {
      if (this.pool === pool) this.started = this.started.filter((t) => !t.destroyed);
    });
    // A thread that fails while it holds no job has nobody to answer; piscina starts another.
    pool.on('error', () => {});
    return pool;
  }

  private async stop(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    this.started = [];
    await pool?.destroy();
  }
}

import { availableParallelism } from 'node:os';
import { hash } from '@node-rs/argon2';
import { ApiError } from '@portal/contract';
import { HANDED_AHEAD, HasherGone, type HashJob, HashWorkers } from './hash-workers.ts';

export interface HashCost {
  memoryCost: number;
  timeCost: number;
}

// argon2id with OWASP's second recommended profile (19 MiB, 2 passes, 1 lane) unless configured.
let cost: HashCost = { memoryCost: 19_456, timeCost: 2 };

/** Set once at start from configuration (tests use a cheaper cost to keep the suite fast). */
export function setHashCost(next: HashCost): void {
  cost = next;
  dummyHash = undefined;
}

const options = () => ({ algorithm: 2, parallelism: 1, ...cost }) as const;

/** The default bound on hashes at once: one core stays free for everything else (at least one). */
export const defaultHashConcurrency = (cores = availableParallelism()): number => Math.max(1, cores - 1);

/** What a caller past the queue bound is told to wait, in seconds (the Retry-After header). */
export const HASH_RETRY_AFTER_S = 1;
export const HASHING_BUSY = 'The server is busy signing other people in. Please try again in a moment.';

/**
 * At most `concurrency` password hashes are handed to the hashing threads at once; up to `queue`
 * more wait their turn (first come, first served); past that a hash is refused at once with 503 BUSY
 * and a Retry-After, instead of slowing every request of the server (docs/decisions/024). Each hash
 * takes a core for ~10 ms at the production cost, so unbounded hashing starves the event loop and
 * the database. (The number of threads bounds the hashes that run: each hashes one at a time.)
 */
export class HashGate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(
    readonly concurrency: number,
    readonly queue: number,
  ) {
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error('hash concurrency must be at least 1');
    if (!Number.isInteger(queue) || queue < 0) throw new Error('hash queue bound must be 0 or more');
  }

  /** Hashes running now and waiting now (for tests and the benchmark). */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  /**
   * Refuses at once (503 BUSY) when a hash could not even wait its turn now: a sign-in checks this
   * before any other work, so a flood past the bound costs no database statement.
   */
  admit(): void {
    if (this.running >= this.concurrency && this.waiting.length >= this.queue)
      throw new ApiError('BUSY', HASHING_BUSY, { retryAfterS: HASH_RETRY_AFTER_S });
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) {
      this.admit();
      // The slot is handed over by the finishing hash (running stays counted), so no newcomer jumps the queue.
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else this.running += 1;
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}

/**
 * The bound in force: `concurrency` hashing threads, and a gate that hands each at most
 * HANDED_AHEAD jobs (the one it hashes and the next) and queues up to `queue` more.
 */
interface Hashing {
  gate: HashGate;
  workers: HashWorkers;
}

const hashingFor = ({ concurrency, queue }: { concurrency: number; queue: number }): Hashing => ({
  gate: new HashGate(concurrency * HANDED_AHEAD, queue),
  workers: new HashWorkers(concurrency),
});

let hashing = hashingFor({ concurrency: defaultHashConcurrency(), queue: 64 });

/** Set once at start from configuration (HASH_CONCURRENCY, HASH_QUEUE_MAX). */
export function setHashLimits(limits: { concurrency: number; queue: number }): void {
  hashing.workers.retire();
  hashing = hashingFor(limits);
}

/** The gate in force: tests look at its load. */
export const hashGate = (): HashGate => hashing.gate;

/** The hashing threads in force: tests look at what each holds. */
export const hashWorkers = (): HashWorkers => hashing.workers;

function runHash(job: HashJob): Promise<string | boolean> {
  const { gate, workers } = hashing;
  return gate.run(() => workers.run(job));
}

export async function hashPassword(password: string): Promise<string> {
  return (await runHash({ op: 'hash', password, options: options() })) as string;
}

/** Verifies against the parameters stored in the hash itself, so a cost change keeps old hashes valid. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return (await runHash({ op: 'verify', hash: passwordHash, password })) === true;
  } catch (error) {
    // A refusal at the bound and a stopped thread are the server's answer, not a wrong password (a
    // wrong one counts towards the account's lock); a hash that cannot be read verifies nothing.
    if (error instanceof ApiError || error instanceof HasherGone) throw error;
    return false;
  }
}

/** Verifying against this when the account does not exist keeps the answer time the same. */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hash('not-a-real-password-0!A', options());
  return dummyHash;
}

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { HANDED_AHEAD, HasherGone, HashWorkers } from './hash-workers.ts';
import { hashPassword, hashWorkers, setHashCost, setHashLimits, verifyPassword } from './passwords.ts';

const cheap = { algorithm: 2, parallelism: 1, memoryCost: 1024, timeCost: 1 } as const;

/** piscina names the threads it starts a microtask later; an answer takes a message, so none has come yet. */
const announced = () => Promise.resolve();

describe('HashWorkers: hashes on threads of their own (piscina)', () => {
  const pools: HashWorkers[] = [];
  const pool = (threads: number) => {
    const p = new HashWorkers(threads);
    pools.push(p);
    return p;
  };
  afterEach(() => {
    for (const p of pools.splice(0)) p.retire();
  });

  it('hands a thread its next hash while it works on one, so it need not wait for the event loop', async () => {
    const workers = pool(1);
    const jobs = [
      workers.run({ op: 'hash', password: 'first password', options: cheap }),
      workers.run({ op: 'hash', password: 'second password', options: cheap }),
    ];
    // both are with the one thread before either is answered
    await announced();
    expect(workers.holding).toEqual([HANDED_AHEAD]);
    const [first, second] = (await Promise.all(jobs)) as string[];
    expect(first).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
    expect(await workers.run({ op: 'verify', hash: first as string, password: 'first password' })).toBe(true);
    expect(await workers.run({ op: 'verify', hash: second as string, password: 'first password' })).toBe(false);
    expect(workers.holding).toEqual([0]);
  });

  it.each([
    // [threads, jobs handed at once, what each thread holds]
    [1, 2, [2]],
    [2, 2, [1, 1]],
    [2, 4, [2, 2]],
    [3, 2, [1, 1, 0]],
  ])(
    '%i threads given %i jobs at once: each job goes to the thread holding the fewest',
    async (threads, n, holding) => {
      const workers = pool(threads);
      const jobs = Array.from({ length: n }, (_, i) =>
        workers.run({ op: 'hash', password: `password ${i}`, options: cheap }),
      );
      await announced();
      expect(workers.holding).toEqual(holding);
      expect(new Set(await Promise.all(jobs)).size).toBe(n);
    },
  );

  it('answers a hash it cannot read with an error, and the thread goes on', async () => {
    const workers = pool(1);
    await expect(workers.run({ op: 'verify', hash: 'not a hash', password: 'x' })).rejects.toThrow();
    expect(await workers.run({ op: 'hash', password: 'after', options: cheap })).toMatch(/^\$argon2id\$/);
  });

  it('a thread that dies fails the jobs it holds as a server error, and another thread takes the next job', async () => {
    const workers = pool(1);
    const costly = { ...cheap, memoryCost: 65_536, timeCost: 8 };
    const held = [
      workers.run({ op: 'hash', password: 'one', options: costly }),
      workers.run({ op: 'hash', password: 'two', options: costly }),
    ];
    const failed = held.map((job) => job.catch((error: unknown) => error));
    expect(workers.workers).toHaveLength(1);
    const [thread] = workers.workers;
    await thread?.terminate();
    for (const error of await Promise.all(failed)) expect(error).toBeInstanceOf(HasherGone);
    expect(await workers.run({ op: 'hash', password: 'three', options: cheap })).toMatch(/^\$argon2id\$/);
    expect(workers.workers).toHaveLength(1);
    expect(workers.workers[0]).not.toBe(thread);
    expect(workers.holding).toEqual([0]);
  });

  it('a pool closed with jobs fails them as a server error, and the next job starts new threads', async () => {
    const workers = pool(1);
    // stopped in the same turn as they are handed over, before the new thread has even loaded
    // argon2, and costly enough that they could not end first anyway
    const costly = { ...cheap, memoryCost: 65_536, timeCost: 8 };
    const held = [
      workers.run({ op: 'hash', password: 'one', options: costly }),
      workers.run({ op: 'hash', password: 'two', options: costly }),
    ];
    // the pool fails them as it stops, before close() has waited for its threads to end
    const failed = held.map((job) => job.catch((error: unknown) => error));
    await workers.close();
    for (const error of await Promise.all(failed)) expect(error).toBeInstanceOf(HasherGone);
    expect(workers.holding).toEqual([]);
    expect(await workers.run({ op: 'hash', password: 'three', options: cheap })).toMatch(/^\$argon2id\$/);
    expect(workers.holding).toEqual([0]);
  });

  it('a retired pool stops its threads at once when idle, and when its last job is answered when not', async () => {
    const idle = pool(2);
    expect(await idle.run({ op: 'hash', password: 'idle', options: cheap })).toMatch(/^\$argon2id\$/);
    expect(idle.holding).toEqual([0, 0]);
    idle.retire();
    expect(idle.workers).toEqual([]);

    const workers = pool(2);
    const busy = workers.run({ op: 'hash', password: 'busy', options: cheap });
    workers.retire();
    await announced();
    expect(workers.holding).toEqual([1, 0]);
    expect(await busy).toMatch(/^\$argon2id\$/);
    expect(workers.holding).toEqual([]);
    expect(workers.workers).toEqual([]);
  });

  it('idle threads do not keep a process alive: a script that hashed ends (and finds the task file)', () => {
    const url = new URL('./hash-workers.ts', import.meta.url).href;
    const script = `import(${JSON.stringify(url)}).then(async ({ HashWorkers }) => {
      const hashed = await new HashWorkers(1).run({ op: 'hash', password: 'x', options: ${JSON.stringify(cheap)} });
      console.log(hashed.slice(0, 9));
    });`;
    const printed = execFileSync(process.execPath, ['--import', 'tsx', '-e', script], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(printed.trim()).toBe('$argon2id');
  });

  it('the bundle carries the task: the build copies it beside dist/server.js, where the pool looks for it', () => {
    const build = readFileSync(new URL('../../build.mjs', import.meta.url), 'utf8');
    expect(build).toContain(
      "cpSync(new URL('./src/lib/hash-worker.mjs', import.meta.url), new URL('./dist/hash-worker.mjs'",
    );
    expect(readFileSync(new URL('./hash-workers.ts', import.meta.url), 'utf8')).toContain(
      "new URL('./hash-worker.mjs', import.meta.url)",
    );
  });
});

describe('hashPassword and verifyPassword go through the gate to the threads', () => {
  it('verifies the right password, refuses a wrong one and an unreadable hash', async () => {
    setHashCost({ memoryCost: 1024, timeCost: 1 });
    setHashLimits({ concurrency: 1, queue: 4 });
    const stored = await hashPassword('correct horse');
    expect(await verifyPassword(stored, 'correct horse')).toBe(true);
    expect(await verifyPassword(stored, 'wrong horse')).toBe(false);
    expect(await verifyPassword('$argon2id$broken', 'correct horse')).toBe(false);
    expect(hashWorkers().threads).toBe(1);
    expect(hashWorkers().holding).toEqual([0]);
  });
});

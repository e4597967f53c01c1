import { afterEach, describe, expect, it } from 'vitest';
import { HANDED_AHEAD, HasherGone, HashWorkers } from './hash-workers.ts';
import { hashPassword, hashWorkers, setHashCost, setHashLimits, verifyPassword } from './passwords.ts';

const cheap = { algorithm: 2, parallelism: 1, memoryCost: 1024, timeCost: 1 } as const;

describe('HashWorkers: hashes on threads of their own', () => {
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
    [3, 2, [1, 1]],
  ])(
    '%i threads given %i jobs at once: each job goes to the thread holding the fewest',
    async (threads, n, holding) => {
      const workers = pool(threads);
      const jobs = Array.from({ length: n }, (_, i) =>
        workers.run({ op: 'hash', password: `password ${i}`, options: cheap }),
      );
      expect(workers.holding).toEqual(holding);
      expect(new Set(await Promise.all(jobs)).size).toBe(n);
    },
  );

  it('answers a hash it cannot read with an error, and the thread goes on', async () => {
    const workers = pool(1);
    await expect(workers.run({ op: 'verify', hash: 'not a hash', password: 'x' })).rejects.toThrow();
    expect(await workers.run({ op: 'hash', password: 'after', options: cheap })).toMatch(/^\$argon2id\$/);
  });

  it('a thread that stops fails the jobs it holds as a server error, and the next job starts a new one', async () => {
    const workers = pool(1);
    // stopped in the same turn as they are handed over, before the new thread has even loaded
    // argon2, and costly enough that they could not end first anyway
    const costly = { ...cheap, memoryCost: 65_536, timeCost: 8 };
    const held = [
      workers.run({ op: 'hash', password: 'one', options: costly }),
      workers.run({ op: 'hash', password: 'two', options: costly }),
    ];
    await workers.close();
    for (const job of held) await expect(job).rejects.toBeInstanceOf(HasherGone);
    expect(workers.holding).toEqual([]);
    expect(await workers.run({ op: 'hash', password: 'three', options: cheap })).toMatch(/^\$argon2id\$/);
    expect(workers.holding).toEqual([0]);
  });

  it('a retired pool stops its idle threads at once and a busy one when it has answered', async () => {
    const workers = pool(2);
    const busy = workers.run({ op: 'hash', password: 'busy', options: cheap });
    workers.retire();
    expect(workers.holding).toEqual([1]);
    expect(await busy).toMatch(/^\$argon2id\$/);
    expect(workers.holding).toEqual([]);
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

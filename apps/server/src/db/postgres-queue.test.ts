import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

// postgres.js keeps its connections in small queues (open, busy, ...). Unpatched (3.4.9), a queue
// that never drains leaves a spent slot behind on every shift, and `remove` searches them all: with
// idle connections in `open`, a server's every query made that array longer and the next one
// slower, without end. patches/postgres+3.4.9.patch (applied by patch-package on install,
// docs/decisions/045) searches from the head only and drops the spent slots. These tests fail
// without it.

interface Queue<T> {
  readonly length: number;
  push(x: T): T;
  shift(): T | undefined;
  remove(x: T): T | null;
}
type QueueOf = <T>(initial?: T[]) => Queue<T>;

const cjs = dirname(createRequire(import.meta.url).resolve('postgres'));
const copies: [string, string][] = [
  ['the ES module the server loads', join(cjs, '../../src/queue.js')],
  ['the CommonJS copy', join(cjs, 'queue.js')],
];

async function load(path: string): Promise<QueueOf> {
  const mod = (await import(pathToFileURL(path).href)) as { default: QueueOf };
  return mod.default;
}

const indexOf = Array.prototype.indexOf;
afterEach(() => {
  Array.prototype.indexOf = indexOf;
});

describe.each(copies)('postgres.js connection queue, %s', (_, path) => {
  it('is first in, first out, and removes what it holds', async () => {
    const Queue = await load(path);
    const cases: { ops: (q: Queue<string>) => unknown[]; want: unknown[] }[] = [
      {
        ops: (q) => [q.push('a'), q.push('b'), q.shift(), q.shift(), q.shift()],
        want: ['a', 'b', 'a', 'b', undefined],
      },
      { ops: (q) => [q.push('a'), q.push('b'), q.remove('a'), q.length, q.shift()], want: ['a', 'b', 'a', 1, 'b'] },
      { ops: (q) => [q.push('a'), q.shift(), q.remove('a'), q.length], want: ['a', 'a', null, 0] },
      {
        ops: (q) => [q.push('a'), q.push('b'), q.shift(), q.remove('b'), q.length, q.shift()],
        want: ['a', 'b', 'a', 'b', 0, undefined],
      },
    ];
    for (const { ops, want } of cases) expect(ops(Queue())).toEqual(want);
  });

  it('stays as long as what it holds when it never drains (idle connections taking turns)', async () => {
    const Queue = await load(path);
    const connections = Array.from({ length: 10 }, (_, i) => ({ id: i }));
    const open = Queue(connections);
    // How long the array is that each search runs over.
    let longest = 0;
    Array.prototype.indexOf = function (this: unknown[], ...args: Parameters<typeof indexOf>) {
      longest = Math.max(longest, this.length);
      return indexOf.apply(this, args);
    };
    // What a query does: take the first idle connection (shift), move it to busy (remove from
    // where it was), and put it back among the idle when the answer is in (push).
    for (let query = 0; query < 10_000; query++) {
      const c = open.shift() as (typeof connections)[number];
      open.remove(c);
      open.push(c);
    }
    Array.prototype.indexOf = indexOf;
    expect(open.length).toBe(10);
    expect(longest).toBeLessThan(200);
    // Still every connection, each once, in turn.
    expect(Array.from({ length: 10 }, () => open.shift()?.id)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});

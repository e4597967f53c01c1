import { describe, expect, it } from 'vitest';
import { batchedStdout } from './log-stream.ts';

describe('the batched log stream', () => {
  it('writes the lines of one turn of the event loop in one write, in order, and loses none', async () => {
    const writes: string[] = [];
    const stream = batchedStdout({ write: (text: string) => writes.push(text) });
    stream.write('a\n');
    stream.write('b\n');
    expect(writes).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    stream.write('c\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual(['a\nb\n', 'c\n']);
  });
});

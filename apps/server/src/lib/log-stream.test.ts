import { afterEach, describe, expect, it, vi } from 'vitest';
import { batchedStdout } from './log-stream.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('the batched log stream', () => {
  it('writes the lines of a short while in one write, in order, and loses none', () => {
    vi.useFakeTimers();
    const writes: string[] = [];
    const stream = batchedStdout({ write: (text: string) => writes.push(text) }, { maxDelayMs: 20 });
    stream.write('a\n');
    vi.advanceTimersByTime(10);
    stream.write('b\n');
    expect(writes).toEqual([]);
    vi.advanceTimersByTime(10);
    expect(writes).toEqual(['a\nb\n']);
    stream.write('c\n');
    vi.advanceTimersByTime(19);
    expect(writes).toEqual(['a\nb\n']);
    vi.advanceTimersByTime(1);
    expect(writes).toEqual(['a\nb\n', 'c\n']);
  });

  it('writes at once when enough is pending, and waits for nothing after', () => {
    vi.useFakeTimers();
    const writes: string[] = [];
    const stream = batchedStdout({ write: (text: string) => writes.push(text) }, { maxDelayMs: 20, maxBytes: 6 });
    stream.write('aaa\n');
    stream.write('bb\n');
    expect(writes).toEqual(['aaa\nbb\n']);
    vi.advanceTimersByTime(20);
    expect(writes).toEqual(['aaa\nbb\n']);
    stream.write('c\n');
    vi.advanceTimersByTime(20);
    expect(writes).toEqual(['aaa\nbb\n', 'c\n']);
  });

  it('writes what is pending when the process exits', () => {
    const writes: string[] = [];
    const before = new Set(process.listeners('exit'));
    const stream = batchedStdout({ write: (text: string) => writes.push(text) }, { maxDelayMs: 60_000 });
    // The stream's own exit listener (emitting 'exit' would run the test runner's too).
    const onExit = process.listeners('exit').find((l) => !before.has(l));
    stream.write('last\n');
    expect(writes).toEqual([]);
    onExit?.(0);
    expect(writes).toEqual(['last\n']);
    if (onExit) process.removeListener('exit', onExit);
  });
});

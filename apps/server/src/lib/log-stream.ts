/**
 * The log's destination: stdout, written once per turn of the event loop instead of once per line.
 * Writes to a pipe are synchronous system calls on Linux, and at a thousand requests a second one
 * call per log line cost a fifth of the server's throughput (docs/performance.md). Lines still
 * pending when the process exits are written then.
 */
export function batchedStdout(out: { write(text: string): unknown } = process.stdout): { write(line: string): void } {
  let pending: string[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending.length === 0) return;
    const text = pending.join('');
    pending = [];
    out.write(text);
  };
  process.once('exit', flush);
  return {
    write(line: string) {
      pending.push(line);
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
  };
}

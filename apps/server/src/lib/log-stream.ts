/**
 * The log's destination: stdout, written in batches instead of once per line. Writes to a pipe or
 * a file are synchronous system calls, and at a thousand requests a second one call per log line
 * cost a fifth of the server's throughput (docs/performance.md); one call per turn of the event
 * loop still made about one call for every two requests. Lines wait at most `maxDelayMs`, or
 * until `maxBytes` are pending; lines still pending when the process exits are written then.
 */
export function batchedStdout(
  out: { write(text: string): unknown } = process.stdout,
  { maxDelayMs = 20, maxBytes = 16 * 1024 }: { maxDelayMs?: number; maxBytes?: number } = {},
): { write(line: string): void } {
  let pending: string[] = [];
  let bytes = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (pending.length === 0) return;
    const text = pending.join('');
    pending = [];
    bytes = 0;
    out.write(text);
  };
  process.once('exit', flush);
  return {
    write(line: string) {
      pending.push(line);
      bytes += line.length;
      if (bytes >= maxBytes) flush();
      else if (!timer) timer = setTimeout(flush, maxDelayMs).unref();
    },
  };
}

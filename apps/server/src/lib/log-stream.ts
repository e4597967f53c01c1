import pino from 'pino';

/** Log lines wait at most this long before they are written... */
export const LOG_BATCH_MS = 20;
/** ...or until this much is pending (just under 16 KiB: pino's destination writes at most that a call, and wants less). */
export const LOG_BATCH_BYTES = 16 * 1024 - 1;

/**
 * The log's destination (stdout unless told otherwise): pino's own buffered one, writing in batches
 * instead of once per line. A write per line cost a fifth of the server's throughput at a thousand
 * requests a second (docs/performance.md), and a write per turn of the event loop still made one for
 * every two requests. Writes go out off the main thread; what is pending when the process exits is
 * written then (pino does it), and a graceful stop flushes it first (lib/shutdown.ts).
 */
export function logDestination(dest: number | string = 1) {
  return pino.destination({
    dest,
    minLength: LOG_BATCH_BYTES,
    periodicFlush: LOG_BATCH_MS,
    sync: false,
  });
}

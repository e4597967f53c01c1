import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import fs, { mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app.ts';
import { freshDatabase, testConfig } from '../test/harness.ts';
import { LOG_BATCH_BYTES, LOG_BATCH_MS, logDestination } from './log-stream.ts';
import { finishShutdown } from './shutdown.ts';

const logFile = () => join(mkdtempSync(join(tmpdir(), 'portal-log-')), 'stdout.log');

/**
 * A destination on a file whose periodic flush the test drives (setInterval is fake for the test),
 * and the texts of the write calls it makes (an idle flush writes an empty text: nothing).
 */
async function watched(file = logFile()) {
  const fd = openSync(file, 'w');
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  const dest = logDestination(fd);
  await once(dest, 'ready');
  const write = vi.spyOn(fs, 'write');
  const writes = () => write.mock.calls.filter((c) => c[0] === fd && c[1] !== '').map((c) => String(c[1]));
  return { dest, file, writes };
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("the log's destination: pino's own, buffered", () => {
  it('writes the lines of a short while in one write, in order, and loses none', async () => {
    const { dest, file, writes } = await watched();
    dest.write('a\n');
    vi.advanceTimersByTime(LOG_BATCH_MS / 2);
    dest.write('b\n');
    expect(writes()).toEqual([]);
    vi.advanceTimersByTime(LOG_BATCH_MS / 2);
    expect(writes()).toEqual(['a\nb\n']);
    await once(dest, 'drain');
    dest.write('c\n');
    vi.advanceTimersByTime(LOG_BATCH_MS - 1);
    expect(writes()).toEqual(['a\nb\n']);
    vi.advanceTimersByTime(1);
    expect(writes()).toEqual(['a\nb\n', 'c\n']);
    await once(dest, 'drain');
    expect(readFileSync(file, 'utf8')).toBe('a\nb\nc\n');
  });

  it('writes at once when 16 KB are pending, without waiting for the tick', async () => {
    const { dest, writes } = await watched();
    const line = `${'x'.repeat(1023)}\n`;
    for (let i = 0; i < 15; i++) dest.write(line);
    expect(writes()).toEqual([]);
    dest.write(line);
    expect(writes()).toEqual([line.repeat(16)]);
    expect(line.length * 16).toBeGreaterThanOrEqual(LOG_BATCH_BYTES);
    await once(dest, 'drain');
  });

  it('writes what is pending when the process exits', () => {
    const file = logFile();
    const url = new URL('./log-stream.ts', import.meta.url).href;
    const script = `import(${JSON.stringify(url)}).then(({ logDestination }) => {
      const dest = logDestination(${JSON.stringify(file)});
      dest.on('ready', () => { dest.write('last\\n'); process.exit(0); });
    });`;
    execFileSync(process.execPath, ['--import', 'tsx', '-e', script], { timeout: 60_000 });
    expect(readFileSync(file, 'utf8')).toBe('last\n');
  });

  it('a graceful stop writes every pending line before it ends', async () => {
    const { dest, file } = await watched();
    const database = await freshDatabase();
    const app = await buildApp({ config: testConfig(), database, logger: { level: 'info', stream: dest } });
    app.log.info('the last word');
    await finishShutdown(app, database);
    expect(readFileSync(file, 'utf8')).toContain('"msg":"the last word"');
  });
});

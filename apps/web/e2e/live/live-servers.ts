import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { expect } from '@playwright/test';
import { startTestPostgres } from '@portal/testing/postgres';
import { liveServers, serverDir, serverEnv } from '../../../../playwright.config';

/**
 * Two portal instances on one PostgreSQL, for the live-fleet test: a throwaway PostgreSQL of its own
 * on a free loopback port (packages/testing/src/postgres.ts), then the built server twice with one
 * DATABASE_URL and one JWT_SECRET, each with its own data folder and no polling
 * (ROBOTS_POLLING=false), so a card can only change through the event stream.
 */

export interface LiveServers {
  a: string;
  b: string;
  databaseUrl: string;
  stop(): Promise<void>;
}

async function ready(url: string, child: ChildProcess, log: () => string): Promise<void> {
  // Start-up: the instance migrates (one after the other, under an advisory lock) and listens.
  const up = async () => {
    if (child.exitCode !== null) throw new Error(`${url} exited with ${child.exitCode}\n${log()}`);
    return fetch(`${url}/readyz`).then(
      (res) => res.ok,
      () => false,
    );
  };
  try {
    await expect.poll(up, { timeout: 60_000 }).toBe(true);
  } catch (err) {
    throw new Error(`${url} did not get ready\n${log()}`, { cause: err });
  }
}

export async function startLiveServers(): Promise<LiveServers> {
  const pg = await startTestPostgres();
  const databaseUrl = pg.url;
  const children: ChildProcess[] = [];
  const stop = async () => {
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      ),
    );
    await pg.stop();
  };
  try {
    const started = [liveServers.a, liveServers.b].map(({ url, dataDir }) => {
      rmSync(dataDir, { recursive: true, force: true });
      const env = {
        // A seeds the demo data (with the robot-driver assets licenses are granted for); B finds it there.
        ...serverEnv({ port: Number(new URL(url).port), dataDir, seedDemo: url === liveServers.a.url }),
        DATABASE_URL: databaseUrl,
        JWT_SECRET: 'e2e-live-Kx7qP2vN9mR4tW8yB3cF6hJ1zLs5Dg0Ua',
        ROBOTS_POLLING: 'false',
      };
      const child = spawn('node', [`${serverDir}/server.js`], {
        env: { ...process.env, ...env },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let err = '';
      child.stderr?.on('data', (chunk: Buffer) => {
        err = (err + chunk.toString()).slice(-4000);
      });
      children.push(child);
      return ready(url, child, () => err);
    });
    await Promise.all(started);
  } catch (err) {
    await stop();
    throw err;
  }
  return { a: liveServers.a.url, b: liveServers.b.url, databaseUrl, stop };
}

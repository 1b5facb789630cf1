import 'reflect-metadata';
import { startApi } from './bootstrap/api';
import { run } from './bootstrap/run';
import { AI_PROVIDER, aiModeBanner, type AiProvider } from './modules/generations';

/** The API process: REST under /api, Swagger at /api/docs, the user app at / and the console at /admin. */
run(async () => {
  const { app, url } = await startApi();
  process.stdout.write(`API listening on ${url}\nAI: ${aiModeBanner(app.get<AiProvider>(AI_PROVIDER)).join('\n    ')}\n`);
});

import 'reflect-metadata';
import { startApi } from './bootstrap/api';
import { run } from './bootstrap/run';

/** The API process: REST under /api, Swagger at /api/docs, the user app at / and the console at /admin. */
run(async () => {
  const { url } = await startApi();
  process.stdout.write(`API listening on ${url}\n`);
});

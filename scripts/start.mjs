// `npm start`: build what is not built, then run the whole product (see backend/src/cli/start.ts).
import { createRequire } from 'node:module';
import path from 'node:path';
import { buildIfNeeded, ROOT } from './build-if-needed.mjs';

try {
  buildIfNeeded();
} catch (error) {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}
createRequire(import.meta.url)(path.join(ROOT, 'backend', 'dist', 'cli', 'start.js'));

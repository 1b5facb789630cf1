// `npm test`: everything, against the real services. Exits non-zero on any failure.
//   1. build what is stale (the browser tests serve the built apps; one test starts dist/main.js)
//   2. lint (ESLint) and the format check (Prettier): style is a gate, not a review comment
//   3. type-check every workspace (swc, which runs the tests, does not check types)
//   4. Vitest: the UIs' own logic (session store, API errors, cost and price display, the generation
//      runner; the console's data provider, auth provider and credit form rules)
//   5. Jest in backend/: unit, integration (real PostgreSQL, Redis, BullMQ) and browser tests
//      (playwright-core driving the system Chromium). Its global setup stops the run with a
//      message naming any service that does not answer.
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { buildIfNeeded, ROOT } from './build-if-needed.mjs';

function step(label, command, args, options = {}) {
  process.stdout.write(`\n> ${label}\n`);
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', ...options });
  if (result.status !== 0) {
    process.stderr.write(`\n${label} failed (exit ${result.status ?? result.signal}).\n`);
    process.exit(result.status || 1);
  }
}

try {
  buildIfNeeded();
} catch (error) {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}
step('lint (eslint)', 'npm', ['run', 'lint', '--silent']);
step('format check (prettier)', 'npm', ['run', 'format:check', '--silent']);
step('type-check', 'npm', ['run', 'typecheck', '--silent']);
step('UI unit tests (vitest)', 'npm', ['run', 'test', '--silent', '-w', 'packages/shared', '-w', 'frontend', '-w', 'admin-ui']);
/** How long Jest may take to exit once it has reported: longer means a test left a handle open. */
const EXIT_GRACE_MS = 60_000;

const extra = process.argv.slice(2);
await jest(extra);

/**
 * Jest in backend/, without --forceExit: every test closes what it opened, so Jest ends on its own.
 * If it is still running a minute after its report, or had to kill its worker at the end, a handle
 * was left open: the step fails, saying so, rather than wait for ever or hide it.
 */
function jest(args) {
  process.stdout.write('\n> backend tests (jest)\n');
  const bin = createRequire(`${ROOT}/backend/package.json`).resolve('jest/bin/jest');
  // one test file at a time, in a worker Jest recycles when it has grown (jest.config.js)
  const child = spawn(process.execPath, [bin, '--maxWorkers=1', ...args], { cwd: `${ROOT}/backend`, stdio: ['inherit', 'pipe', 'pipe'] });
  let tail = '';
  let hung;
  let leaked = false;
  const relay = (out) => (chunk) => {
    out.write(chunk);
    tail = (tail + chunk.toString()).slice(-2000);
    // Jest's worker kept alive by a handle at the end: Jest kills it and says so; the run fails
    if (tail.includes('A worker process has failed to exit gracefully')) leaked = true;
    if (!hung && tail.includes('Ran all test suites')) {
      hung = setTimeout(() => {
        process.stderr.write(
          `\nJest reported but did not exit within ${EXIT_GRACE_MS / 1000} s: a test left a handle open ` +
            '(a timer, socket or server). Find it with `npx jest --detectOpenHandles` in backend/.\n',
        );
        child.kill('SIGKILL');
      }, EXIT_GRACE_MS);
      hung.unref();
    }
  };
  child.stdout.on('data', relay(process.stdout));
  child.stderr.on('data', relay(process.stderr));
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(hung);
      if (code === 0 && leaked) {
        process.stderr.write(
          '\nA test left a handle open (a timer, socket or server): find it with `npx jest --detectOpenHandles` in backend/.\n',
        );
        process.exit(1);
      }
      if (code !== 0) {
        process.stderr.write(`\nbackend tests (jest) failed (exit ${code ?? signal}).\n`);
        process.exit(code || 1);
      }
      resolve();
    });
  });
}

// `npm test`: everything, against the real services. Exits non-zero on any failure.
//   1. build what is stale (the browser tests serve the built apps; one test starts dist/main.js)
//   2-4, at the same time: lint (ESLint) and the format check (Prettier): style is a gate, not a
//      review comment; type-check every workspace (swc, which runs the tests, does not check types);
//      Vitest: the UIs' own logic (session store, API errors, cost and price display, the generation
//      runner; the console's data provider, auth provider and credit form rules)
//   5. Jest in backend/: unit, integration (real PostgreSQL, Redis, BullMQ) and browser tests
//      (playwright-core driving the system Chromium). Its global setup stops the run with a
//      message naming any service that does not answer.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { buildIfNeeded, ROOT } from './build-if-needed.mjs';

/** Runs the steps at once; prints each one's output in order; exits naming every step that failed. */
async function checks(steps) {
  const runs = steps.map(
    ([label, command, args]) =>
      new Promise((resolve) => {
        const started = Date.now();
        const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: '1' } });
        const output = [];
        child.stdout.on('data', (d) => output.push(d));
        child.stderr.on('data', (d) => output.push(d));
        child.on('close', (code, signal) =>
          resolve({ label, code: code ?? signal, output: Buffer.concat(output), seconds: (Date.now() - started) / 1000 }),
        );
      }),
  );
  const failed = [];
  for (const run of runs) {
    const { label, code, output, seconds } = await run;
    process.stdout.write(`\n> ${label} (${seconds.toFixed(1)} s)\n`);
    process.stdout.write(output);
    if (code !== 0) failed.push(`${label} (exit ${code})`);
  }
  if (failed.length) {
    process.stderr.write(`\nfailed: ${failed.join(', ')}.\n`);
    process.exit(1);
  }
}

try {
  buildIfNeeded();
} catch (error) {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}
// The four checks are independent: they run at the same time (about half a minute saved on two
// cores), each one's output printed whole, in this order, when it has ended.
await checks([
  ['lint (eslint)', 'npm', ['run', 'lint', '--silent']],
  ['format check (prettier)', 'npm', ['run', 'format:check', '--silent']],
  ['type-check', 'npm', ['run', 'typecheck', '--silent']],
  ['UI unit tests (vitest)', 'npm', ['run', 'test', '--silent', '-w', 'packages/shared', '-w', 'frontend', '-w', 'admin-ui']],
]);
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
  // two test files at a time (TEST_WORKERS), each worker with its own database and Redis database
  // (test/global-setup.js, test/worker-env.js), recycled by Jest when it has grown (jest.config.js)
  const workers = Math.max(1, Number(process.env.TEST_WORKERS) || 2);
  const child = spawn(process.execPath, [bin, `--maxWorkers=${workers}`, ...args], {
    cwd: `${ROOT}/backend`,
    stdio: ['inherit', 'pipe', 'pipe'],
  });
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

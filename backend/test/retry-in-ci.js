/* global jest */
// Runs after the test framework is installed, before each integration, browser and fault test file
// (jest.config.js `setupFilesAfterEnv`). In CI a failed test is run once more: these tests drive real
// servers, a real browser and real timers on a shared two-core machine, where a stall of a second
// or more happens a few times a run. A test that fails twice fails the run; one that passes only on
// its second try is named at the end of the run (test/retried-reporter.js), so its flakiness is seen
// and fixed instead of hidden. Unit tests are never retried. Locally (CI unset) nothing is retried.
if (process.env.CI && process.env.TEST_RETRIES !== '0') {
  jest.retryTimes(Number(process.env.TEST_RETRIES || 1), { logErrorsBeforeRetry: true });
}

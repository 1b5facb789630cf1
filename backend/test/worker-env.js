// Runs before every test file (jest.config.js `setupFiles`), in the Jest worker that runs it: points
// TEST_DB_URL at this worker's own database and TEST_REDIS_URL at this worker's own Redis database
// (global-setup.js made them), so two files running at once in two workers share nothing but the
// servers. Queue names are unique per app as well (QUEUE_PREFIX, test/helpers/test-app.ts).
const names = (process.env.TEST_DB_NAMES || '').split(',').filter(Boolean);
if (names.length > 0) {
  const worker = Math.min(Math.max(Number(process.env.JEST_WORKER_ID) || 1, 1), names.length);
  const name = names[worker - 1];
  const url = new URL(process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres');
  url.pathname = `/${name}`;
  process.env.TEST_DB_NAME = name;
  process.env.TEST_DB_URL = url.toString();
  // Redis has databases 0-15: worker n uses database n (0 stays the developer's own)
  const redis = new URL(process.env.TEST_REDIS_BASE_URL || process.env.REDIS_URL || 'redis://127.0.0.1:6379');
  redis.pathname = `/${worker % 16}`;
  process.env.TEST_REDIS_URL = redis.toString();
}

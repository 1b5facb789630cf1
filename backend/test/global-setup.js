// Jest global setup: the real PostgreSQL and Redis must answer; a fresh database is created for
// each Jest worker of this run (and dropped by global-teardown.js), so that test files running at
// the same time in different workers never see each other's rows (test/worker-env.js points each
// worker at its own). A missing service stops the run with a message.
const net = require('node:net');
const { Client } = require('pg');

const ADMIN_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

function redisPing(url) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port || 6379), timeout: 3000 });
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (d) => {
      socket.destroy();
      if (/PONG|NOAUTH/.test(d.toString())) resolve();
      else reject(new Error(d.toString()));
    });
    socket.once('timeout', () => (socket.destroy(), reject(new Error('timed out'))));
    socket.once('error', reject);
  });
}

module.exports = async function globalSetup(globalConfig) {
  const admin = new Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 5000 });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(
      `PostgreSQL is not answering at ${ADMIN_URL.replace(/:[^:@/]+@/, ':***@')} (${error.message}).\n` +
        `Start it (on the project machine: pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start),\n` +
        `or point TEST_DATABASE_URL at a PostgreSQL server whose user may create databases.`,
      { cause: error },
    );
  }
  try {
    await redisPing(REDIS_URL);
  } catch (error) {
    await admin.end();
    throw new Error(
      `Redis is not answering at ${REDIS_URL} (${error.message}).\n` +
        `Start it (redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no),\n` +
        `or set REDIS_URL to a Redis 7 server.`,
      { cause: error },
    );
  }
  const name = `fr_test_${process.pid}_${Date.now().toString(36)}`;
  const workers = Math.max(1, Number(globalConfig?.maxWorkers) || 1);
  // one per worker (JEST_WORKER_ID 1..workers); `_w1` also serves code run outside a worker
  const names = Array.from({ length: workers }, (_, i) => `${name}_w${i + 1}`);
  for (const db of names) await admin.query(`CREATE DATABASE ${db}`);
  await admin.end();
  process.env.TEST_DB_BASE_NAME = name;
  process.env.TEST_DB_NAMES = names.join(',');
  process.env.TEST_REDIS_BASE_URL = REDIS_URL;
  process.env.TEST_RUN_ID = name;
  require('./worker-env.js');
};

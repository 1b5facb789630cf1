import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../database/data-source';
import { CreditsRepository } from '../modules/credits/credits.repository';
import { CreditsService } from '../modules/credits/credits.service';

/**
 * `npm run bench:credits [-- --pairs 5000 --concurrency 16 --users 50]`: hold + capture pairs
 * against a real PostgreSQL (a scratch database on TEST_DATABASE_URL's server, default
 * 127.0.0.1:5432, dropped afterwards). Prints throughput and latency percentiles.
 */
function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function main(): Promise<void> {
  const pairs = arg('pairs', 5000);
  const concurrency = arg('concurrency', 16);
  const userCount = arg('users', 50);
  const adminUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `fr_bench_${Date.now()}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const ds = new DataSource({ ...dataSourceOptions(url.toString(), { poolSize: concurrency + 2 }), logging: false });
  try {
    await ds.initialize();
    await ds.runMigrations();
    const credits = new CreditsService(new CreditsRepository(ds), () => 3, { renewedByStripe: async () => new Set<string>() });
    const users: string[] = [];
    for (let i = 0; i < userCount; i++) {
      const [row] = await ds.query(`INSERT INTO users (email) VALUES ($1) RETURNING id`, [`bench-${i}@example.com`]);
      await credits.openAccount(row.id, 'free');
      await credits.adjust({ userId: row.id, mode: 'add', amount: 1_000_000, reason: 'bench', actorId: row.id });
      users.push(row.id);
    }
    const latencies: number[] = [];
    let next = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < pairs) {
          const i = next++;
          const generationId = randomUUID();
          const start = performance.now();
          await credits.hold(users[i % users.length], generationId, 1 + (i % 3));
          await credits.capture(generationId, 'Image generation');
          latencies.push(performance.now() - start);
        }
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    latencies.sort((a, b) => a - b);
    const [{ ok }] = await ds.query(
      `SELECT bool_and(a.subscription_balance = s.sub AND a.purchased_balance = s.pur) AS ok FROM credit_accounts a
         JOIN (SELECT user_id, sum(amount) FILTER (WHERE bucket = 'subscription') AS sub, sum(amount) FILTER (WHERE bucket = 'purchased') AS pur
                 FROM credit_ledger_entries GROUP BY user_id) s ON s.user_id = a.user_id`,
    );
    process.stdout.write(
      `bench:credits  PostgreSQL ${(await ds.query('SHOW server_version'))[0].server_version}, ${users.length} users, concurrency ${concurrency}\n` +
        `  hold+capture pairs: ${pairs} in ${seconds.toFixed(2)} s = ${(pairs / seconds).toFixed(0)} pairs/s (${((2 * pairs) / seconds).toFixed(0)} operations/s)\n` +
        `  latency per pair: p50 ${percentile(latencies, 50).toFixed(1)} ms, p95 ${percentile(latencies, 95).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms\n` +
        `  books balanced afterwards: ${ok ? 'yes' : 'NO'}\n`,
    );
    if (!ok) process.exitCode = 1;
  } finally {
    if (ds.isInitialized) await ds.destroy();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});

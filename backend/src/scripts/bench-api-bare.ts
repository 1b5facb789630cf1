import * as http from 'node:http';
import { Pool } from 'pg';

/**
 * The physical reference for `npm run bench:api`: a bare Node http server with a pg pool of the
 * API's size, doing by hand the reads the API's authenticated routes need, with no framework, no
 * logging, no validation and no compression.
 * - GET /trivial: `SELECT 1`.
 * - GET /reads?sid=&uid=: the live session with its user (what the API's guard reads), the credit
 *   account and billing flag (GET /api/me) and a page of completed generations with their count
 *   (GET /api/generations), as JSON.
 * Env: DATABASE_URL, PORT, POOL_SIZE.
 */
const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.POOL_SIZE || 10) });

async function reads(sid: string, uid: string): Promise<unknown> {
  const session = await pool.query(
    `SELECT s.id, u.id AS user_id, u.role, u.tier, u.email, u.full_name FROM sessions s JOIN users u ON u.id = s.user_id
      WHERE s.id = $1 AND s.user_id = $2 AND s.revoked_at IS NULL AND s.expires_at > now()`,
    [sid, uid],
  );
  if (!session.rows.length) return null;
  const [account, billing, page, count] = await Promise.all([
    pool.query(`SELECT subscription_balance, purchased_balance, held FROM credit_accounts WHERE user_id = $1`, [uid]),
    pool.query(
      `SELECT 1 FROM subscriptions WHERE user_id = $1 AND payment_failed AND status IN ('active', 'trialing', 'past_due') LIMIT 1`,
      [uid],
    ),
    pool.query(
      `SELECT * FROM user_generations WHERE user_id = $1 AND status = 'completed' ORDER BY created_at DESC, id DESC LIMIT 24 OFFSET 0`,
      [uid],
    ),
    pool.query(`SELECT count(*)::int AS n FROM user_generations WHERE user_id = $1 AND status = 'completed'`, [uid]),
  ]);
  return {
    user: session.rows[0],
    credits: account.rows[0],
    payment_failed: billing.rows.length > 0,
    items: page.rows,
    total: count.rows[0].n,
  };
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://bench');
  const answer = (status: number, body: unknown) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  };
  const work =
    url.pathname === '/trivial'
      ? pool.query('SELECT 1 AS one').then((r) => r.rows[0])
      : url.pathname === '/reads'
        ? reads(url.searchParams.get('sid') ?? '', url.searchParams.get('uid') ?? '')
        : Promise.resolve(undefined);
  work.then(
    (body) => answer(body === undefined ? 404 : body === null ? 401 : 200, body ?? { error: 'not found' }),
    (err: Error) => answer(500, { error: err.message }),
  );
});

server.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('bare server ready\n'));
process.on('SIGTERM', () => server.close(() => void pool.end().then(() => process.exit(0))));

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** A key as found: what it was first used for and, once answered, the answer. */
export interface StoredIdempotentRequest {
  route: string;
  requestHash: string;
  statusCode: number | null;
  response: unknown;
}

/** How long a key is kept, and how long an unanswered first request holds it (a crash mid-request frees it then). */
export const IDEMPOTENCY_WINDOW = { keptHours: 24, inProgressMinutes: 5 } as const;

/** Every read and write of idempotency_keys. */
@Injectable()
export class IdempotencyRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Takes the key for a new request: inserted, or taken over when the one there is older than the
   * window, or was never answered and its holder is long gone. Answers false when the key is held
   * (then `find` says by what).
   */
  async claim(userId: string, key: string, route: string, requestHash: string): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      `INSERT INTO idempotency_keys (user_id, key, route, request_hash) VALUES ($1, $2, $3, $4)
       ON CONFLICT (user_id, key) DO UPDATE
          SET route = EXCLUDED.route, request_hash = EXCLUDED.request_hash, status_code = NULL, response = NULL, created_at = now()
        WHERE idempotency_keys.created_at < now() - make_interval(hours => $5)
           OR (idempotency_keys.status_code IS NULL AND idempotency_keys.created_at < now() - make_interval(mins => $6))
       RETURNING key`,
      [userId, key, route, requestHash, IDEMPOTENCY_WINDOW.keptHours, IDEMPOTENCY_WINDOW.inProgressMinutes],
    );
    return rows.length > 0;
  }

  async find(userId: string, key: string): Promise<StoredIdempotentRequest | undefined> {
    const [row]: StoredIdempotentRequest[] = await this.db.query(
      `SELECT route, request_hash AS "requestHash", status_code AS "statusCode", response
         FROM idempotency_keys WHERE user_id = $1 AND key = $2`,
      [userId, key],
    );
    return row;
  }

  /** The first request's answer, kept for the retries. */
  async complete(userId: string, key: string, statusCode: number, response: unknown): Promise<void> {
    await this.db.query(`UPDATE idempotency_keys SET status_code = $3, response = $4 WHERE user_id = $1 AND key = $2`, [
      userId,
      key,
      statusCode,
      JSON.stringify(response ?? null),
    ]);
  }

  /** The first request failed: the key is free again, so a retry runs afresh. */
  async release(userId: string, key: string): Promise<void> {
    await this.db.query(`DELETE FROM idempotency_keys WHERE user_id = $1 AND key = $2 AND status_code IS NULL`, [userId, key]);
  }

  /** Deletes up to `limit` keys past the window; answers how many. */
  async deleteExpired(limit: number): Promise<number> {
    const [, n]: [unknown, number] = await this.db.query(
      `DELETE FROM idempotency_keys WHERE ctid IN (
         SELECT ctid FROM idempotency_keys WHERE created_at < now() - make_interval(hours => $1) LIMIT $2)`,
      [IDEMPOTENCY_WINDOW.keptHours, limit],
    );
    return n;
  }
}

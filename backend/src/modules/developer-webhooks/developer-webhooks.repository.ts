import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { WebhookDeliveryEntity, WebhookDeliveryState, WebhookDisabledReason, WebhookEndpointEntity } from './developer-webhook.entities';

/** A delivery claimed for an attempt, with what sending it needs. */
export interface ClaimedDelivery {
  id: string;
  endpointId: string;
  userId: string;
  eventType: string;
  body: string;
  attempts: number;
  url: string;
  secretSealed: string;
  endpointDisabled: boolean;
}

/** What the delivery log shows of one delivery. */
export type DeliveryLogRow = Pick<
  WebhookDeliveryEntity,
  | 'id'
  | 'endpointId'
  | 'eventId'
  | 'eventType'
  | 'state'
  | 'attempts'
  | 'nextAttemptAt'
  | 'lastAttemptAt'
  | 'lastStatus'
  | 'lastDurationMs'
  | 'lastError'
  | 'createdAt'
>;

/** Every read and write of developer_webhook_endpoints and developer_webhook_deliveries. `m`: the caller's transaction. */
@Injectable()
export class DeveloperWebhooksRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  transaction<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /** Locks the account (one person's endpoints are written one at a time: the count below is exact). */
  async lockOwner(m: EntityManager, userId: string): Promise<boolean> {
    const rows: unknown[] = await m.query(`SELECT id FROM users WHERE id = $1 FOR UPDATE`, [userId]);
    return rows.length > 0;
  }

  async countEndpoints(m: EntityManager, userId: string): Promise<number> {
    return m.getRepository(WebhookEndpointEntity).count({ where: { userId } });
  }

  async insertEndpoint(
    m: EntityManager,
    row: Pick<WebhookEndpointEntity, 'userId' | 'url' | 'events' | 'secretSealed'>,
  ): Promise<WebhookEndpointEntity> {
    const repo = m.getRepository(WebhookEndpointEntity);
    return repo.save(repo.create(row));
  }

  endpointsOf(userId: string): Promise<WebhookEndpointEntity[]> {
    return this.db.getRepository(WebhookEndpointEntity).find({ where: { userId }, order: { createdAt: 'DESC', id: 'DESC' } });
  }

  findEndpoint(userId: string, id: string): Promise<WebhookEndpointEntity | null> {
    return this.db.getRepository(WebhookEndpointEntity).findOne({ where: { id, userId } });
  }

  /** Deletes one endpoint of the account (its deliveries go with it); answers whether there was one. */
  async deleteEndpoint(userId: string, id: string): Promise<boolean> {
    const [, n]: [unknown, number] = await this.db.query(`DELETE FROM developer_webhook_endpoints WHERE id = $1 AND user_id = $2`, [
      id,
      userId,
    ]);
    return n > 0;
  }

  /** Every endpoint of the account goes (a take-over: what its maker set up ends). */
  async deleteAllOf(m: EntityManager, userId: string): Promise<number> {
    const [, n]: [unknown, number] = await m.query(`DELETE FROM developer_webhook_endpoints WHERE user_id = $1`, [userId]);
    return n;
  }

  /** The account's endpoints that are on and subscribed to `eventType`. */
  async subscribedEndpoints(userId: string, eventType: string): Promise<Pick<WebhookEndpointEntity, 'id'>[]> {
    return this.db.query(`SELECT id FROM developer_webhook_endpoints WHERE user_id = $1 AND disabled_at IS NULL AND $2 = ANY(events)`, [
      userId,
      eventType,
    ]);
  }

  /** New pending deliveries, due now; answers their ids in the order given. */
  async insertDeliveries(rows: { endpointId: string; eventId: string; eventType: string; body: string }[]): Promise<string[]> {
    if (!rows.length) return [];
    const repo = this.db.getRepository(WebhookDeliveryEntity);
    const saved = await repo.save(rows.map((r) => repo.create({ ...r, state: WebhookDeliveryState.Pending, nextAttemptAt: new Date() })));
    return saved.map((s) => s.id);
  }

  /**
   * Claims attempt `attempt` of a pending delivery (the one after the attempts made): a duplicated
   * or late job finds it claimed and does nothing. Answers what sending needs, or undefined.
   */
  async claimAttempt(id: string, attempt: number): Promise<ClaimedDelivery | undefined> {
    const [rows]: [ClaimedDelivery[], number] = await this.db.query(
      `UPDATE developer_webhook_deliveries d
          SET attempts = $2, last_attempt_at = now(), next_attempt_at = NULL
         FROM developer_webhook_endpoints e
        WHERE d.id = $1 AND d.state = 'pending' AND d.attempts = $2 - 1 AND e.id = d.endpoint_id
        RETURNING d.id, d.endpoint_id AS "endpointId", e.user_id AS "userId", d.event_type AS "eventType", d.body, d.attempts,
                  e.url, e.secret_sealed AS "secretSealed", e.disabled_at IS NOT NULL AS "endpointDisabled"`,
      [id, attempt],
    );
    return rows[0];
  }

  /** The attempt's outcome; `next`: when the next attempt is due (still pending), or the final state. */
  async recordAttempt(
    id: string,
    outcome: { status: number | null; durationMs: number; error: string | null },
    next: { state: WebhookDeliveryState; nextAttemptAt: Date | null },
  ): Promise<void> {
    await this.db.query(
      `UPDATE developer_webhook_deliveries
          SET state = $2, next_attempt_at = $3, last_status = $4, last_duration_ms = $5, last_error = $6
        WHERE id = $1`,
      [id, next.state, next.nextAttemptAt, outcome.status, outcome.durationMs, outcome.error?.slice(0, 300) ?? null],
    );
  }

  /** A success: the endpoint's failure streak ends, and a switched-off endpoint is on again (a test event got through). */
  async endpointSucceeded(endpointId: string): Promise<boolean> {
    const [rows]: [{ was_disabled: boolean }[], number] = await this.db.query(
      `UPDATE developer_webhook_endpoints e SET consecutive_failures = 0, failing_since = NULL, disabled_at = NULL, disabled_reason = NULL
         FROM developer_webhook_endpoints old
        WHERE e.id = $1 AND old.id = e.id
        RETURNING old.disabled_at IS NOT NULL AS was_disabled`,
      [endpointId],
    );
    return rows[0]?.was_disabled ?? false;
  }

  /**
   * A failure: one more in the streak. When the streak is `failures` long and began `spanHours` or
   * more ago, the endpoint is switched off (answers true, once) and its pending deliveries end.
   */
  async endpointFailed(endpointId: string, failures: number, spanHours: number): Promise<boolean> {
    return this.db.transaction(async (m) => {
      const [rows]: [{ disabled: boolean }[], number] = await m.query(
        `UPDATE developer_webhook_endpoints
            SET consecutive_failures = consecutive_failures + 1, failing_since = coalesce(failing_since, now()),
                disabled_at = CASE WHEN disabled_at IS NULL AND consecutive_failures + 1 >= $2
                                    AND coalesce(failing_since, now()) <= now() - make_interval(hours => $3)
                                   THEN now() ELSE disabled_at END,
                disabled_reason = CASE WHEN disabled_at IS NULL AND consecutive_failures + 1 >= $2
                                        AND coalesce(failing_since, now()) <= now() - make_interval(hours => $3)
                                       THEN $4 ELSE disabled_reason END
          WHERE id = $1
          RETURNING disabled_at IS NOT NULL AND disabled_at = now() AS disabled`,
        [endpointId, failures, spanHours, WebhookDisabledReason.Failing],
      );
      const disabled = rows[0]?.disabled ?? false;
      if (disabled) {
        await m.query(
          `UPDATE developer_webhook_deliveries SET state = 'failed', next_attempt_at = NULL, last_error = coalesce(last_error, 'not sent')
            WHERE endpoint_id = $1 AND state = 'pending'`,
          [endpointId],
        );
      }
      return disabled;
    });
  }

  /** The last `limit` deliveries of each of these endpoints, newest first. */
  async recentDeliveries(endpointIds: string[], limit: number): Promise<DeliveryLogRow[]> {
    if (!endpointIds.length) return [];
    return this.db.query(
      `SELECT d.id, d.endpoint_id AS "endpointId", d.event_id AS "eventId", d.event_type AS "eventType", d.state, d.attempts,
              d.next_attempt_at AS "nextAttemptAt", d.last_attempt_at AS "lastAttemptAt", d.last_status AS "lastStatus",
              d.last_duration_ms AS "lastDurationMs", d.last_error AS "lastError", d.created_at AS "createdAt"
         FROM unnest($1::uuid[]) AS e(id)
         CROSS JOIN LATERAL (
           SELECT * FROM developer_webhook_deliveries x WHERE x.endpoint_id = e.id ORDER BY x.created_at DESC, x.id DESC LIMIT $2
         ) d
        ORDER BY d.created_at DESC, d.id DESC`,
      [endpointIds, limit],
    );
  }

  async findDelivery(id: string): Promise<DeliveryLogRow | undefined> {
    const [row] = await this.recentById(id);
    return row;
  }

  private recentById(id: string): Promise<DeliveryLogRow[]> {
    return this.db.query(
      `SELECT id, endpoint_id AS "endpointId", event_id AS "eventId", event_type AS "eventType", state, attempts,
              next_attempt_at AS "nextAttemptAt", last_attempt_at AS "lastAttemptAt", last_status AS "lastStatus",
              last_duration_ms AS "lastDurationMs", last_error AS "lastError", created_at AS "createdAt"
         FROM developer_webhook_deliveries WHERE id = $1`,
      [id],
    );
  }

  /**
   * Pending deliveries whose next attempt is overdue by `graceMs` (their job was lost), or whose
   * attempt started that long ago and never recorded an outcome (its process died): id and the attempt due.
   */
  async overdue(graceMs: number, limit: number): Promise<{ id: string; attempt: number }[]> {
    return this.db.query(
      `SELECT id, attempts + 1 AS attempt FROM developer_webhook_deliveries
        WHERE state = 'pending'
          AND (next_attempt_at < now() - make_interval(secs => $1)
               OR (next_attempt_at IS NULL AND last_attempt_at < now() - make_interval(secs => $1)))
        ORDER BY coalesce(next_attempt_at, last_attempt_at) LIMIT $2`,
      [graceMs / 1000, limit],
    );
  }

  /** Deletes up to `limit` deliveries made more than `days` ago; answers how many. */
  async deleteOlderThan(days: number, limit: number): Promise<number> {
    const [, n]: [unknown, number] = await this.db.query(
      `DELETE FROM developer_webhook_deliveries WHERE id IN (
         SELECT id FROM developer_webhook_deliveries WHERE created_at < now() - make_interval(days => $1) LIMIT $2)`,
      [days, limit],
    );
    return n;
  }
}

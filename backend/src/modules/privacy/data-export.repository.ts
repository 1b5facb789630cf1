import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

type Row = Record<string, unknown>;

/**
 * "Download my data": what an account holds, read across the modules' tables (users, settings,
 * uploads, faces, generations, credits, activity, support, sessions), always by the account's own id.
 * Read-only, like the console's read models; secrets (password hash, two-factor secret, token
 * hashes) are never selected.
 */
@Injectable()
export class DataExportRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async profile(userId: string): Promise<Row | undefined> {
    const [row] = await this.db.query(
      `SELECT id, email, full_name, role, tier, created_at, updated_at, last_sign_in_at, email_verified_at, age_confirmed_at,
              password_hash IS NOT NULL AS has_password, google_sub IS NOT NULL AS google_linked,
              totp_enabled_at IS NOT NULL AS two_factor_enabled, suspended_at
         FROM users WHERE id = $1`,
      [userId],
    );
    return row;
  }

  async settings(userId: string): Promise<Row | undefined> {
    const [row] = await this.db.query(
      `SELECT email_notifications, generation_notifications, marketing_emails, updated_at FROM user_settings WHERE user_id = $1`,
      [userId],
    );
    return row;
  }

  uploads(userId: string): Promise<Array<Row & { id: string; storage_key: string }>> {
    return this.db.query(
      `SELECT id, storage_key, width, height, size_bytes, created_at, last_used_at FROM uploads WHERE user_id = $1 ORDER BY created_at`,
      [userId],
    );
  }

  generations(userId: string): Promise<Array<Row & { id: string; result_key: string | null }>> {
    return this.db.query(
      `SELECT id, type, status, category, metadata, cost, tier, error, result_key, created_at, completed_at
         FROM user_generations WHERE user_id = $1 ORDER BY created_at`,
      [userId],
    );
  }

  creditLedger(userId: string): Promise<Row[]> {
    return this.db.query(
      `SELECT id, kind, bucket, amount, generation_id, reason, created_at FROM credit_ledger_entries WHERE user_id = $1 ORDER BY created_at, id`,
      [userId],
    );
  }

  async creditBalance(userId: string): Promise<Row | undefined> {
    const [row] = await this.db.query(`SELECT subscription_balance, purchased_balance, held FROM credit_accounts WHERE user_id = $1`, [
      userId,
    ]);
    return row;
  }

  activity(userId: string): Promise<Row[]> {
    return this.db.query(`SELECT activity_type, metadata, created_at FROM user_activity_logs WHERE user_id = $1 ORDER BY created_at`, [
      userId,
    ]);
  }

  /** The person's tickets, with the replies they were sent and their own messages (never the staff's internal notes). */
  async tickets(userId: string): Promise<Row[]> {
    const tickets: Array<Row & { id: string }> = await this.db.query(
      `SELECT id, number, kind, status, subject, message, name, email, generation_id, created_at, updated_at, resolved_at
         FROM support_inquiries WHERE user_id = $1 ORDER BY created_at`,
      [userId],
    );
    if (!tickets.length) return tickets;
    const messages: Array<Row & { inquiry_id: string }> = await this.db.query(
      `SELECT inquiry_id, kind, body, created_at FROM support_messages
        WHERE inquiry_id = ANY($1::uuid[]) AND kind <> 'note' ORDER BY created_at`,
      [tickets.map((t) => t.id)],
    );
    return tickets.map((t) => ({
      ...t,
      messages: messages.filter((m) => m.inquiry_id === t.id).map(({ inquiry_id: _, ...m }) => m),
    }));
  }

  /**
   * "Only you": the consent (its wording's version and when), the face found in each photo (its
   * 128-number descriptor, size, and whether the live selfie verified it), every face check, and
   * the likeness figure of each result. Biometric data is the person's own: they get all of it.
   */
  async faces(userId: string): Promise<Row> {
    const [consent] = await this.db.query(`SELECT version, consented_at FROM face_consents WHERE user_id = $1`, [userId]);
    const photos = await this.db.query(
      `SELECT upload_id, face_width, score, verified_at, created_at, descriptor FROM upload_faces WHERE user_id = $1 ORDER BY created_at`,
      [userId],
    );
    const checks = await this.db.query(
      `SELECT kind, outcome, distance, created_at FROM face_check_events WHERE user_id = $1 ORDER BY created_at`,
      [userId],
    );
    const likeness = await this.db.query(
      `SELECT l.generation_id, l.outcome, l.distance, l.tries, l.threshold, l.checked_at
         FROM generation_likeness l JOIN user_generations g ON g.id = l.generation_id
        WHERE g.user_id = $1 ORDER BY l.checked_at`,
      [userId],
    );
    return { consent: consent ?? null, photos, checks, likeness };
  }

  sessions(userId: string): Promise<Row[]> {
    return this.db.query(
      `SELECT created_at, last_used_at, expires_at, revoked_at, revoke_reason, user_agent, ip FROM sessions WHERE user_id = $1 ORDER BY created_at`,
      [userId],
    );
  }
}

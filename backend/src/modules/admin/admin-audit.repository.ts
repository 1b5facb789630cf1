import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AuditLogRowDto } from './dto/audit-log-row.dto';

/** The trail's sortable fields and the column each sorts by. */
export const AUDIT_SORTABLE = { id: 'a.id', created_at: 'a.created_at', action: 'a.action' };

/** The trail's filters (exact matches), already checked by the service. */
export interface AuditListFilter {
  actor_id?: string;
  target_user_id?: string;
  action?: string;
  target_type?: string;
  target_id?: string;
}

/** An audit row as the trail shows it, before its date is written out. */
export type AuditRow = Omit<AuditLogRowDto, 'created_at'> & { created_at: Date };

/**
 * The console's read model of the audit trail: audit rows with the actor's and the target's current
 * email, joining the audit and users tables of their modules. Read-only.
 */
@Injectable()
export class AdminAuditRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** One page of the trail, and the number of rows that match. */
  async list(filter: AuditListFilter, orderBy: string, limit: number, offset: number): Promise<{ rows: AuditRow[]; total: number }> {
    const where: string[] = [];
    const args: unknown[] = [];
    for (const key of ['actor_id', 'target_user_id', 'action', 'target_type', 'target_id'] as const) {
      const value = filter[key];
      if (value !== undefined) where.push(`a.${key} = $${args.push(value)}`);
    }
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const [{ total }] = await this.db.query(`SELECT count(*)::int AS total FROM audit_log a ${clause}`, args);
    const rows: AuditRow[] = await this.db.query(
      `SELECT a.id, a.actor_id, coalesce(u.email, a.actor_email) AS actor_email, a.action, a.target_type, a.target_id, a.target_user_id,
              coalesce(t.email, a.target_email) AS target_email, a.before, a.after, a.created_at
         FROM audit_log a LEFT JOIN users u ON u.id = a.actor_id LEFT JOIN users t ON t.id = a.target_user_id
         ${clause} ORDER BY ${orderBy} LIMIT ${limit} OFFSET ${offset}`,
      args,
    );
    return { rows, total };
  }
}

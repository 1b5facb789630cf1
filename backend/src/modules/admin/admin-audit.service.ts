import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ListParams, parseListQuery, SimpleRestQueryDto, textFilter } from '../../common/simple-rest';
import type { AuditLogRowDto } from './dto/audit-log-row.dto';
import { assertUuid } from './admin-users.service';

const FILTERS = ['actor_id', 'target_user_id', 'action', 'target_type', 'target_id'] as const;
type AuditFilter = (typeof FILTERS)[number];
const SORTABLE = { id: 'a.id', created_at: 'a.created_at', action: 'a.action' };

/** Reading the audit trail (admins only). */
@Injectable()
export class AdminAuditService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  parse(query: SimpleRestQueryDto): ListParams<AuditFilter> {
    return parseListQuery(query, { sortable: SORTABLE, defaultSort: ['created_at', 'DESC'], defaultPageSize: 50, filters: FILTERS });
  }

  async list(params: ListParams<AuditFilter>): Promise<{ rows: AuditLogRowDto[]; total: number }> {
    const where: string[] = [];
    const args: unknown[] = [];
    for (const key of ['actor_id', 'target_user_id'] as const) {
      const value = params.filter[key];
      if (value === undefined) continue;
      const one = textFilter(value, key)!;
      assertUuid(one);
      where.push(`a.${key} = $${args.push(one)}`);
    }
    for (const key of ['action', 'target_type', 'target_id'] as const) {
      const value = textFilter(params.filter[key], key);
      if (value !== undefined) where.push(`a.${key} = $${args.push(value)}`);
    }
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const [{ total }] = await this.db.query(`SELECT count(*)::int AS total FROM audit_log a ${clause}`, args);
    const rows = await this.db.query(
      `SELECT a.id, a.actor_id, coalesce(u.email, a.actor_email) AS actor_email, a.action, a.target_type, a.target_id, a.target_user_id,
              coalesce(t.email, a.target_email) AS target_email, a.before, a.after, a.created_at
         FROM audit_log a LEFT JOIN users u ON u.id = a.actor_id LEFT JOIN users t ON t.id = a.target_user_id
         ${clause} ORDER BY ${params.orderBy} LIMIT ${params.limit} OFFSET ${params.offset}`,
      args,
    );
    return {
      rows: rows.map((r: AuditLogRowDto & { created_at: Date }) => ({ ...r, created_at: new Date(r.created_at).toISOString() })),
      total,
    };
  }
}

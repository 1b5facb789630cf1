import { Injectable } from '@nestjs/common';
import { ListParams, parseListQuery, SimpleRestQueryDto, textFilter } from '../../common/simple-rest';
import { AdminAuditRepository, AUDIT_SORTABLE, type AuditListFilter } from './admin-audit.repository';
import { assertUuid } from './admin-users.service';
import type { AuditLogRowDto } from './dto/audit-log-row.dto';

const FILTERS = ['actor_id', 'target_user_id', 'action', 'target_type', 'target_id'] as const;
type AuditFilter = (typeof FILTERS)[number];

/** Reading the audit trail (admins only). */
@Injectable()
export class AdminAuditService {
  constructor(private readonly repo: AdminAuditRepository) {}

  parse(query: SimpleRestQueryDto): ListParams<AuditFilter> {
    return parseListQuery(query, { sortable: AUDIT_SORTABLE, defaultSort: ['created_at', 'DESC'], defaultPageSize: 50, filters: FILTERS });
  }

  async list(params: ListParams<AuditFilter>): Promise<{ rows: AuditLogRowDto[]; total: number }> {
    const filter: AuditListFilter = {};
    for (const key of ['actor_id', 'target_user_id'] as const) {
      const value = params.filter[key];
      if (value === undefined) continue;
      const one = textFilter(value, key)!;
      assertUuid(one);
      filter[key] = one;
    }
    for (const key of ['action', 'target_type', 'target_id'] as const) {
      const value = textFilter(params.filter[key], key);
      if (value !== undefined) filter[key] = value;
    }
    const { rows, total } = await this.repo.list(filter, params.orderBy, params.limit, params.offset);
    return {
      rows: rows.map((r) => ({ ...r, created_at: new Date(r.created_at).toISOString() })),
      total,
    };
  }
}

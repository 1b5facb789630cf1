import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuditLogEntity } from './audit-log.entity';

/** A new audit_log row as written (the id and time come from the database). */
export type NewAuditRow = Pick<
  AuditLogEntity,
  'actorId' | 'actorEmail' | 'action' | 'targetType' | 'targetId' | 'targetUserId' | 'targetEmail' | 'before' | 'after'
>;

/** Writes of audit_log. */
@Injectable()
export class AuditRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Writes one row; `manager`: inside the caller's transaction, so that it commits with the action. */
  async insert(row: NewAuditRow, manager?: EntityManager): Promise<void> {
    // TypeORM's typing of a partial entity cannot take a free-form jsonb object: the snapshots are cast
    await (manager ?? this.db.manager).insert(AuditLogEntity, { ...row, before: row.before as never, after: row.after as never });
  }
}

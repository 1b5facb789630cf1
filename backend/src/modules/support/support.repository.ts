import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

/** Reads and writes of support_inquiries and support_messages. `manager`: inside the caller's transaction. */
@Injectable()
export class SupportRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The account's tickets stay, no longer tied to it (an account taken back by the owner of its address). */
  async detachUser(userId: string, manager?: EntityManager): Promise<void> {
    await (manager ?? this.db.manager).query(`UPDATE support_inquiries SET user_id = NULL WHERE user_id = $1`, [userId]);
  }
}

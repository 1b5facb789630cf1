import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

/** Reads and writes of users. */
@Injectable()
export class UsersRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The email of each of these users (unknown ids are left out); `manager`: inside the caller's transaction. */
  emailsOf(ids: string[], manager?: EntityManager): Promise<{ id: string; email: string }[]> {
    return (manager ?? this.db.manager).query(`SELECT id, email FROM users WHERE id = ANY($1::uuid[])`, [ids]);
  }
}

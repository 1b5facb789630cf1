import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** Every read and write of the uploads table. */
@Injectable()
export class UploadsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The account's uploads among these ids or storage keys. */
  async findMatching(userId: string, ids: string[], storageKeys: string[]): Promise<{ id: string }[]> {
    return this.db.query(`SELECT id FROM uploads WHERE user_id = $1 AND (id::text = ANY($2::text[]) OR storage_key = ANY($3::text[]))`, [
      userId,
      ids,
      storageKeys,
    ]);
  }
}

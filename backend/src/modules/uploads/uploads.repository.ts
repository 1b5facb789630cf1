import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, DeepPartial, EntityManager, In } from 'typeorm';
import { UploadEntity } from './upload.entity';

/** Every read and write of the uploads table (the rows of users' photos; the files themselves are in storage). */
@Injectable()
export class UploadsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  private get repo() {
    return this.db.getRepository(UploadEntity);
  }

  transaction<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /** A new row in memory (nothing written yet). */
  build(fields: DeepPartial<UploadEntity>): UploadEntity {
    return this.repo.create(fields);
  }

  /** Writes new rows; `manager`: inside the caller's transaction. */
  async insert(rows: UploadEntity[], manager?: EntityManager): Promise<void> {
    await (manager ?? this.db.manager).getRepository(UploadEntity).insert(rows);
  }

  findByIds(ids: string[]): Promise<UploadEntity[]> {
    return this.repo.findBy({ id: In(ids) });
  }

  findOwn(userId: string, id: string): Promise<UploadEntity | null> {
    return this.repo.findOneBy({ id, userId });
  }

  /** The user's uploads among these ids (others' are left out). */
  findOwnByIds(userId: string, ids: string[]): Promise<UploadEntity[]> {
    return this.repo.findBy({ id: In(ids), userId });
  }

  async deleteOwn(userId: string, id: string): Promise<void> {
    await this.repo.delete({ id, userId });
  }

  /** The account's uploads among these ids or storage keys. */
  async findMatching(userId: string, ids: string[], storageKeys: string[]): Promise<{ id: string }[]> {
    return this.db.query(`SELECT id FROM uploads WHERE user_id = $1 AND (id::text = ANY($2::text[]) OR storage_key = ANY($3::text[]))`, [
      userId,
      ids,
      storageKeys,
    ]);
  }

  /** Sets last_used_at to now. */
  async touch(ids: string[]): Promise<void> {
    await this.repo.update({ id: In(ids) }, { lastUsedAt: () => 'now()' });
  }

  /**
   * Takes the per-account lock on the photos kept, held until the transaction of `manager` ends
   * (outside a transaction it ends with the statement).
   */
  async lockKept(userId: string, manager?: EntityManager): Promise<void> {
    await (manager ?? this.db.manager).query(`SELECT pg_advisory_xact_lock(hashtextextended('uploads-kept:' || $1, 0))`, [userId]);
  }

  /** The bytes received of all the user's stored photos. */
  async bytesKept(userId: string, manager?: EntityManager): Promise<number> {
    const [row] = (await (manager ?? this.db.manager)
      .getRepository(UploadEntity)
      .createQueryBuilder('u')
      .select('COALESCE(SUM(u.received_bytes), 0)::bigint', 'kept')
      .where('u.user_id = :userId', { userId })
      .getRawMany()) as Array<{ kept: string }>;
    return Number(row?.kept ?? 0);
  }
}

import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import { NotFoundError, ValidationError } from '../../common/errors';
import { STORAGE, type StoragePort } from '../../storage';
import { UploadResponseDto } from './dto/upload-response.dto';
import { acceptPhoto, PhotoRejectedError, UPLOAD_LIMITS, UPLOAD_MESSAGES, type AcceptedPhoto } from './image-intake';
import { PhotoTooLargeError } from './photo-upload.interceptor';
import { UploadEntity } from './upload.entity';

/** Where a user's photo lives: everything of a user is under `users/<user id>/`. */
export function uploadStorageKey(userId: string, uploadId: string): string {
  return `users/${userId}/uploads/${uploadId}.jpg`;
}

export interface IncomingPhoto {
  buffer: Buffer;
  size: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Photos: checked by their bytes, re-encoded without metadata, stored privately under the user's
 * prefix, and read back only through signed URLs. A batch is all or nothing.
 */
@Injectable()
export class UploadsService {
  private readonly logger = new Logger('Uploads');

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(STORAGE) private readonly storage: StoragePort,
  ) {}

  private get repo() {
    return this.db.getRepository(UploadEntity);
  }

  async create(userId: string, files: IncomingPhoto[] | undefined): Promise<UploadResponseDto[]> {
    if (!files || files.length === 0) throw new ValidationError(UPLOAD_MESSAGES.none);
    if (files.length > UPLOAD_LIMITS.maxFiles) throw new ValidationError(UPLOAD_MESSAGES.tooMany);

    // 1. judge and re-encode every file first: one refused file refuses the batch, before anything is stored
    const accepted: AcceptedPhoto[] = [];
    for (const file of files) {
      try {
        accepted.push(await acceptPhoto(file.buffer));
      } catch (error) {
        if (error instanceof PhotoRejectedError) throw error.reason === 'tooLarge' ? new PhotoTooLargeError() : new ValidationError(error.message);
        throw error;
      }
    }

    // 2. store, then record; undo the stored objects when anything fails
    const rows = accepted.map((photo) => {
      const id = randomUUID();
      return this.repo.create({ id, userId, storageKey: uploadStorageKey(userId, id), width: photo.width, height: photo.height, sizeBytes: photo.jpeg.length });
    });
    const stored: string[] = [];
    try {
      for (const [i, row] of rows.entries()) {
        await this.storage.put(row.storageKey, accepted[i].jpeg, { contentType: 'image/jpeg' });
        stored.push(row.storageKey);
      }
      await this.db.transaction((m) => m.getRepository(UploadEntity).insert(rows));
    } catch (error) {
      await Promise.all(stored.map((key) => this.storage.delete(key).catch((e) => this.logger.warn({ err: e, key }, 'could not remove a stored photo'))));
      throw error;
    }
    const saved = await this.repo.findBy({ id: In(rows.map((r) => r.id)) });
    const byId = new Map(saved.map((r) => [r.id, r]));
    return Promise.all(rows.map((r) => this.toDto(byId.get(r.id) ?? r)));
  }

  async get(userId: string, id: string): Promise<UploadResponseDto> {
    return this.toDto(await this.findOwn(userId, id));
  }

  async delete(userId: string, id: string): Promise<void> {
    const row = await this.findOwn(userId, id);
    await this.storage.delete(row.storageKey);
    await this.repo.delete({ id: row.id, userId });
  }

  /**
   * The caller's uploads with these ids, in the given order. Another user's upload and an unknown
   * id look the same (VALIDATION_ERROR), so no one learns which ids exist.
   */
  async findOwnedOrdered(userId: string, ids: string[]): Promise<UploadEntity[]> {
    const unique = [...new Set(ids)];
    if (unique.some((id) => !UUID.test(id))) throw new ValidationError(UPLOAD_MESSAGES.notFound);
    const rows = unique.length ? await this.repo.findBy({ id: In(unique), userId }) : [];
    if (rows.length !== unique.length) throw new ValidationError(`${UPLOAD_MESSAGES.notFound} Please upload it again.`);
    const byId = new Map(rows.map((r) => [r.id, r]));
    return unique.map((id) => byId.get(id)!);
  }

  /** Marks uploads as used now (they are kept 30 days after their last use). */
  async touch(ids: string[]): Promise<void> {
    if (ids.length) await this.repo.update({ id: In(ids) }, { lastUsedAt: () => 'now()' });
  }

  private async findOwn(userId: string, id: string): Promise<UploadEntity> {
    const row = UUID.test(id) ? await this.repo.findOneBy({ id, userId }) : null;
    if (!row) throw new NotFoundError(UPLOAD_MESSAGES.notFound);
    return row;
  }

  private async toDto(row: UploadEntity): Promise<UploadResponseDto> {
    return {
      id: row.id,
      width: row.width,
      height: row.height,
      url: await this.storage.signedUrl(row.storageKey),
      created_at: (row.createdAt ?? new Date()).toISOString(),
    };
  }
}

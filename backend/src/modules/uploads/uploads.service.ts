import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { IMAGE_WORK_GATE, type WorkGate } from '../../common/concurrency';
import { NotFoundError, ValidationError } from '../../common/errors';
import { STORAGE, type StoragePort } from '../../storage';
import { FaceChecksService, type PhotoFace } from '../faces/face-checks.service';
import { AI_PROVIDER, type AiProvider } from '../generations/providers/ai-provider';
import { UploadResponseDto } from './dto/upload-response.dto';
import {
  asCatalogueError,
  cleanCopy,
  inspectPhoto,
  UPLOAD_LIMITS,
  UPLOAD_MESSAGES,
  type AcceptedPhoto,
  type InspectedPhoto,
} from './image-intake';
import { UploadQuotaService } from './upload-quota.service';
import { UploadEntity } from './upload.entity';
import { UploadsRepository } from './uploads.repository';

/** Where a user's photo lives: everything of a user is under `users/<user id>/`. */
export function uploadStorageKey(userId: string, uploadId: string): string {
  return `users/${userId}/uploads/${uploadId}.jpg`;
}

export interface IncomingPhoto {
  buffer: Buffer;
  size: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A photo used again within this long is not marked used again (`touch`). */
const TOUCH_AFTER_MS = 60 * 60 * 1000;

/**
 * Photos: checked by their bytes, re-encoded without metadata, stored privately under the user's
 * prefix, and read back only through signed URLs. A batch is all or nothing.
 */
@Injectable()
export class UploadsService {
  private readonly logger = new Logger('Uploads');

  constructor(
    private readonly repo: UploadsRepository,
    @Inject(STORAGE) private readonly storage: StoragePort,
    @Inject(IMAGE_WORK_GATE) private readonly imageWork: WorkGate,
    private readonly quota: UploadQuotaService,
    @Inject(AI_PROVIDER) private readonly provider: AiProvider,
    private readonly faces: FaceChecksService,
  ) {}

  /**
   * The smallest shorter side a photo may have: the product's minimum (UPLOAD_LIMITS.minSide, which
   * the user app checks too), or the configured vendor's largest minimum over image and video when
   * that is more.
   */
  get minPhotoSide(): number {
    return Math.max(UPLOAD_LIMITS.minSide, this.provider.inputSpec('image').minSide, this.provider.inputSpec('video').minSide);
  }

  async create(userId: string, files: IncomingPhoto[] | undefined): Promise<UploadResponseDto[]> {
    if (!files || files.length === 0) throw new ValidationError(UPLOAD_MESSAGES.none);
    if (files.length > UPLOAD_LIMITS.maxFiles) throw new ValidationError(UPLOAD_MESSAGES.tooMany);

    // 1. the cheap checks on every file (bytes and headers, nothing decoded): one refused file refuses the batch
    const inspected: InspectedPhoto[] = [];
    const minSide = this.minPhotoSide;
    for (const file of files) inspected.push(await asCatalogueError(() => inspectPhoto(file.buffer, { minSide })));

    // 2. the allowances, counted on the bytes received: storage kept (checked again, under a lock,
    //    when recording), and the hour's (taken now, given back if the batch fails later)
    const received = files.reduce((sum, file) => sum + file.buffer.length, 0);
    await this.quota.assertRoomToKeep(userId, received);
    const giveBack = await this.quota.reserve(userId, files.length, received);
    try {
      // 3. decode and re-encode, a bounded number at once in this process (503 + Retry-After beyond)
      const accepted = await this.imageWork.run(async () => {
        const copies: AcceptedPhoto[] = [];
        for (const [i, file] of files.entries()) copies.push(await asCatalogueError(() => cleanCopy(file.buffer, inspected[i])));
        return copies;
      });
      // 3b. the face checks (FACE_CHECKS): exactly one face in each photo, wide and sharp enough, before anything is kept
      const faces = await this.faces.checkPhotos(
        userId,
        accepted.map((photo) => photo.jpeg),
      );
      // 4. store, then record under the storage allowance; undo the stored objects when anything fails
      const rows = accepted.map((photo, i) => {
        const id = randomUUID();
        return this.repo.build({
          id,
          userId,
          storageKey: uploadStorageKey(userId, id),
          width: photo.width,
          height: photo.height,
          sizeBytes: photo.jpeg.length,
          receivedBytes: files[i].buffer.length,
        });
      });
      await this.storeAndRecord(userId, rows, accepted, received, faces);
      const saved = await this.repo.findByIds(rows.map((r) => r.id));
      const byId = new Map(saved.map((r) => [r.id, r]));
      return Promise.all(rows.map((r) => this.toDto(byId.get(r.id) ?? r)));
    } catch (error) {
      await giveBack().catch((e) => this.logger.warn({ err: e }, 'could not give back the upload allowance'));
      throw error;
    }
  }

  private async storeAndRecord(
    userId: string,
    rows: UploadEntity[],
    photos: AcceptedPhoto[],
    received: number,
    faces: PhotoFace[] | null,
  ): Promise<void> {
    const stored: string[] = [];
    try {
      for (const [i, row] of rows.entries()) {
        await this.storage.put(row.storageKey, photos[i].jpeg, { contentType: 'image/jpeg' });
        stored.push(row.storageKey);
      }
      await this.repo.transaction(async (m) => {
        await this.quota.assertRoomToKeep(userId, received, m);
        await this.repo.insert(rows, m);
        // each photo's face (its descriptor) goes with it: deleted with the row (ON DELETE CASCADE)
        if (faces)
          await this.faces.recordPhotoFaces(
            userId,
            rows.map((row, i) => ({ uploadId: row.id, face: faces[i] })),
            m,
          );
      });
    } catch (error) {
      await Promise.all(
        stored.map((key) => this.storage.delete(key).catch((e) => this.logger.warn({ err: e, key }, 'could not remove a stored photo'))),
      );
      throw error;
    }
  }

  /**
   * One photo through the same intake as a user's upload (judged by its bytes, decoded under the
   * image work gate, re-encoded without metadata), for the console's catalogue photos. Stores
   * nothing and counts against no person's allowance: the caller keeps the clean copy.
   */
  async get(userId: string, id: string): Promise<UploadResponseDto> {
    return this.toDto(await this.findOwn(userId, id));
  }

  /** A signed link to the caller's photo, or null when it is gone (deleted, swept) or not theirs. */
  async signedLinkOfOwn(userId: string, id: string | undefined): Promise<string | null> {
    const row = id && UUID.test(id) ? await this.repo.findOwn(userId, id) : null;
    return row ? this.storage.signedUrl(row.storageKey, { hostRelative: true }) : null;
  }

  async delete(userId: string, id: string): Promise<void> {
    const row = await this.findOwn(userId, id);
    await this.storage.delete(row.storageKey);
    await this.repo.deleteOwn(userId, row.id);
  }

  /**
   * The caller's uploads with these ids, in the given order. Another user's upload and an unknown
   * id look the same (VALIDATION_ERROR), so no one learns which ids exist.
   */
  async findOwnedOrdered(userId: string, ids: string[]): Promise<UploadEntity[]> {
    const unique = [...new Set(ids)];
    if (unique.some((id) => !UUID.test(id))) throw new ValidationError(UPLOAD_MESSAGES.notFound);
    const rows = unique.length ? await this.repo.findOwnByIds(userId, unique) : [];
    if (rows.length !== unique.length) throw new ValidationError(`${UPLOAD_MESSAGES.notFound} Please upload it again.`);
    const byId = new Map(rows.map((r) => [r.id, r]));
    return unique.map((id) => byId.get(id)!);
  }

  /**
   * Marks uploads as used now (they are kept 30 days after their last use). A photo marked within
   * the last hour is left as it is: a person generating again with the same photos costs no write
   * (`npm run bench:generations`), and its 30 days move by an hour at most.
   */
  async touch(uploads: Pick<UploadEntity, 'id' | 'lastUsedAt'>[]): Promise<void> {
    const since = Date.now() - TOUCH_AFTER_MS;
    const ids = uploads.filter((u) => (u.lastUsedAt?.getTime() ?? 0) <= since).map((u) => u.id);
    if (ids.length) await this.repo.touch(ids);
  }

  private async findOwn(userId: string, id: string): Promise<UploadEntity> {
    const row = UUID.test(id) ? await this.repo.findOwn(userId, id) : null;
    if (!row) throw new NotFoundError(UPLOAD_MESSAGES.notFound);
    return row;
  }

  private async toDto(row: UploadEntity): Promise<UploadResponseDto> {
    return {
      id: row.id,
      width: row.width,
      height: row.height,
      url: await this.storage.signedUrl(row.storageKey, { hostRelative: true }),
      created_at: (row.createdAt ?? new Date()).toISOString(),
    };
  }
}

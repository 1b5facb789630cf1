import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AppError, ErrorCode, RateLimitError } from '../../common/errors';
import { type AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { AUTH_RATE_LIMIT_STORAGE } from '../auth/rate-limit/auth-rate-limit';
import { UploadsRepository } from './uploads.repository';
import type { RateLimitStore } from '../auth/rate-limit/redis-throttler.storage';

const HOUR_MS = 3600_000;
const MB = 1024 * 1024;

/** How much of the upload allowance a person has used (GET /api/uploads/usage). */
export interface UploadUsage {
  photos_this_hour: number;
  photos_per_hour: number;
  bytes_this_hour: number;
  bytes_per_hour: number;
  bytes_kept: number;
  bytes_kept_limit: number;
  /** when the hour's allowance starts again (null when nothing was uploaded this hour) */
  hour_resets_at: string | null;
}

/** 413 PAYLOAD_TOO_LARGE: the photos kept would pass the account's storage allowance. */
export class StorageQuotaError extends AppError {
  constructor(message: string) {
    super(ErrorCode.PAYLOAD_TOO_LARGE, message, 413);
  }
}

export const QUOTA_MESSAGES = {
  photosPerHour: (limit: number, minutes: number) =>
    `You can upload ${limit} photos an hour. Please try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`,
  bytesPerHour: (limitMb: number, minutes: number) =>
    `You can upload ${limitMb} MB of photos an hour. Please try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`,
  kept: (limitMb: number, retentionDays: number) =>
    `Your photos have reached your ${formatMb(limitMb)} of storage. Photos are deleted ${retentionDays} days after their last use; ` +
    'remove photos you no longer need to upload more.',
} as const;

function formatMb(mb: number): string {
  return mb >= 1024 && mb % 1024 === 0 ? `${mb / 1024} GB` : `${mb} MB`;
}

/**
 * Upload quotas per account, counted on the bytes received (not on the smaller copies we keep):
 * photos and megabytes an hour (a fixed one-hour window that opens with the first upload, counted
 * in Redis so every API process shares it, in memory while Redis is away), and megabytes kept
 * (the sum over the person's stored photos, checked under a per-account lock in the same
 * transaction that records new photos, so parallel uploads cannot pass it together).
 *
 * Only photos that are accepted count: a refused batch changes nothing.
 */
@Injectable()
export class UploadQuotaService {
  private readonly limits: NonNullable<AppConfig['uploads']>;
  private readonly retentionDays: number;

  constructor(
    private readonly uploads: UploadsRepository,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(AUTH_RATE_LIMIT_STORAGE) private readonly counters: RateLimitStore,
  ) {
    this.limits = config.uploads;
    this.retentionDays = config.privacy.uploadRetentionDays;
  }

  async usage(userId: string): Promise<UploadUsage> {
    const [photos, bytes, kept] = await Promise.all([
      this.counters.peek(photosKey(userId)),
      this.counters.peek(bytesKey(userId)),
      this.uploads.bytesKept(userId),
    ]);
    const msLeft = Math.max(photos.msLeft, bytes.msLeft);
    return {
      photos_this_hour: photos.count,
      photos_per_hour: this.limits.photosPerHour,
      bytes_this_hour: bytes.count,
      bytes_per_hour: this.limits.bytesPerHour,
      bytes_kept: kept,
      bytes_kept_limit: this.limits.bytesKept,
      hour_resets_at: photos.count > 0 || bytes.count > 0 ? new Date(Date.now() + msLeft).toISOString() : null,
    };
  }

  /**
   * Before the body is read: refuses at once (429 or 413) when the hour's allowance or the storage
   * is already used up, so a spent account costs us no bandwidth or decoding.
   */
  async refuseWhenSpent(userId: string): Promise<void> {
    const [photos, bytes] = await Promise.all([this.counters.peek(photosKey(userId)), this.counters.peek(bytesKey(userId))]);
    if (photos.count >= this.limits.photosPerHour) throw this.photosError(photos.msLeft);
    if (bytes.count >= this.limits.bytesPerHour) throw this.bytesError(bytes.msLeft);
    if ((await this.uploads.bytesKept(userId)) >= this.limits.bytesKept) throw this.keptError();
  }

  /**
   * Takes `photos` photos and `bytes` bytes from the hour's allowance, or refuses with 429 and
   * Retry-After (taking nothing). Atomic across processes: two uploads racing cannot both pass.
   * Answers a function that gives the allowance back (the batch was refused later on).
   */
  async reserve(userId: string, photos: number, bytes: number): Promise<() => Promise<void>> {
    const giveBackPhotos = () => this.counters.undo(photosKey(userId), photos);
    const giveBackBytes = () => this.counters.undo(bytesKey(userId), bytes);
    const counted = await this.counters.hit(photosKey(userId), HOUR_MS, photos);
    if (counted.count > this.limits.photosPerHour) {
      await giveBackPhotos();
      throw this.photosError(counted.msLeft);
    }
    const weighed = await this.counters.hit(bytesKey(userId), HOUR_MS, bytes);
    if (weighed.count > this.limits.bytesPerHour) {
      await Promise.all([giveBackPhotos(), giveBackBytes()]);
      throw this.bytesError(weighed.msLeft);
    }
    return async () => {
      await Promise.all([giveBackPhotos(), giveBackBytes()]);
    };
  }

  /**
   * Inside the transaction that records new photos (`manager`): takes a per-account lock (held to
   * the commit) and refuses with 413 when the photos kept plus `bytes` would pass the storage
   * allowance. Without a manager it is the early check before any work, with no lock to hold.
   */
  async assertRoomToKeep(userId: string, bytes: number, manager?: EntityManager): Promise<void> {
    await this.uploads.lockKept(userId, manager);
    if ((await this.uploads.bytesKept(userId, manager)) + bytes > this.limits.bytesKept) throw this.keptError();
  }

  private photosError(msLeft: number): RateLimitError {
    return new RateLimitError(QUOTA_MESSAGES.photosPerHour(this.limits.photosPerHour, minutes(msLeft)), seconds(msLeft));
  }

  private bytesError(msLeft: number): RateLimitError {
    return new RateLimitError(QUOTA_MESSAGES.bytesPerHour(Math.floor(this.limits.bytesPerHour / MB), minutes(msLeft)), seconds(msLeft));
  }

  private keptError(): StorageQuotaError {
    return new StorageQuotaError(QUOTA_MESSAGES.kept(Math.floor(this.limits.bytesKept / MB), this.retentionDays));
  }
}

const photosKey = (userId: string) => `upload-photos:${userId}`;
const bytesKey = (userId: string) => `upload-bytes:${userId}`;
const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));
const minutes = (ms: number) => Math.max(1, Math.ceil(ms / 60_000));

import { createHash } from 'node:crypto';
import { DeveloperErrorCode, DeveloperMessages } from '@fitting-room/shared/error-catalogue';
import { Injectable, Logger } from '@nestjs/common';
import { AppError, ValidationError } from '../errors';
import { IdempotencyRepository } from './idempotency.repository';

/** 422 IDEMPOTENCY_KEY_REUSED: the key was used with another request (body, method or path). */
export class IdempotencyKeyReusedError extends AppError {
  constructor() {
    super(DeveloperErrorCode.IDEMPOTENCY_KEY_REUSED, DeveloperMessages.idempotencyKeyReused, 422);
  }
}

/** 409 IDEMPOTENCY_KEY_IN_USE: the first request with the key is still being answered. */
export class IdempotencyKeyInUseError extends AppError {
  constructor() {
    super(DeveloperErrorCode.IDEMPOTENCY_KEY_IN_USE, DeveloperMessages.idempotencyKeyInUse, 409);
  }
}

/** 1 to 255 printable ASCII characters (a UUID v4 is the usual choice). */
const KEY = /^[\x21-\x7e]{1,255}$/;

/** A multipart file as multer hands it over (memory storage). */
interface ReceivedFile {
  fieldname: string;
  originalname: string;
  mimetype: string;
  buffer: Buffer;
}

/** JSON with the keys of every object sorted: the same body hashes the same whatever its key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value as Record<string, unknown>)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** The hash of a request's body: its JSON (keys sorted) or form fields, and each file's field, name, type and bytes. */
export function requestHash(body: unknown, files?: readonly ReceivedFile[]): string {
  const hash = createHash('sha256').update(canonical(body ?? {}));
  for (const f of files ?? []) {
    hash.update(`\n${canonical([f.fieldname, f.originalname, f.mimetype])}:`);
    hash.update(createHash('sha256').update(f.buffer).digest('hex'));
  }
  return hash.digest('hex');
}

/** What `begin` decided. */
export type IdempotencyStart = { kind: 'run' } | { kind: 'replay'; statusCode: number; response: unknown };

/**
 * Idempotent requests as Stripe has them: a key the client chooses names one request for 24 hours.
 * The first request with it runs; its success is kept and given again to every retry with the same
 * key, route and body, which starts nothing. The same key with another request answers 422; a retry
 * while the first is still running answers 409. A failed first request keeps nothing: a retry runs
 * afresh (a validation error, a busy queue...).
 */
@Injectable()
export class IdempotencyService {
  private readonly logger = new Logger('Idempotency');

  constructor(private readonly repo: IdempotencyRepository) {}

  /** 400 unless the header is a valid key. */
  static checkKey(key: string): void {
    if (!KEY.test(key)) throw new ValidationError(DeveloperMessages.idempotencyKeyInvalid);
  }

  async begin(userId: string, key: string, route: string, hash: string): Promise<IdempotencyStart> {
    IdempotencyService.checkKey(key);
    for (let tries = 0; tries < 3; tries++) {
      if (await this.repo.claim(userId, key, route, hash)) return { kind: 'run' };
      const held = await this.repo.find(userId, key);
      if (!held) continue; // released meanwhile: claim again
      if (held.route !== route || held.requestHash !== hash) throw new IdempotencyKeyReusedError();
      if (held.statusCode === null) throw new IdempotencyKeyInUseError();
      return { kind: 'replay', statusCode: held.statusCode, response: held.response };
    }
    throw new IdempotencyKeyInUseError();
  }

  /**
   * Keeps the first answer for the retries. A failure to keep it never fails the request that was
   * answered (its work is done): it is logged, and the key frees itself after 5 minutes.
   */
  async complete(userId: string, key: string, statusCode: number, response: unknown): Promise<void> {
    await this.repo
      .complete(userId, key, statusCode, response)
      .catch((err: unknown) => this.logger.error({ event: 'idempotency_complete_failed', err }, 'an answer was not kept for its retries'));
  }

  /** The request failed: its key is free again. A failure to free it is logged (the key then frees itself in 5 minutes). */
  async release(userId: string, key: string): Promise<void> {
    await this.repo
      .release(userId, key)
      .catch((err: unknown) => this.logger.warn({ event: 'idempotency_release_failed', err }, 'key not released'));
  }
}

import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import multer from 'multer';
import { AppError, ValidationError } from '../../common/errors';
import { PhotoTooLargeError, UPLOAD_LIMITS, UPLOAD_MESSAGES } from './image-intake';
import { UploadQuotaService } from './upload-quota.service';
import type { AuthUser } from '../../common/auth';
import type { Request, Response } from 'express';
import type { Observable } from 'rxjs';

export { PhotoTooLargeError };

export const PHOTO_FIELD = 'files';

/** Multer's and busboy's refusals in the catalogue's words. */
export function uploadErrorFor(error: unknown): AppError {
  const code = (error as { code?: unknown } | null)?.code;
  const field = (error as { field?: unknown } | null)?.field;
  switch (code) {
    case 'LIMIT_FILE_SIZE':
      return new PhotoTooLargeError();
    case 'LIMIT_FILE_COUNT':
      return new ValidationError(UPLOAD_MESSAGES.tooMany);
    case 'LIMIT_UNEXPECTED_FILE':
      return new ValidationError(field === PHOTO_FIELD ? UPLOAD_MESSAGES.tooMany : UPLOAD_MESSAGES.wrongField);
    default:
      return new ValidationError(UPLOAD_MESSAGES.malformed);
  }
}

/**
 * Reads `multipart/form-data` into memory with hard limits (5 files under 10MB, a few small text
 * fields), before any pipe or handler runs. Nothing is written anywhere here: the service decides
 * per batch, and a refused batch leaves no trace. A request that is not multipart passes through
 * with no files (the handler answers "Please choose at least one photo to upload").
 * An account whose upload allowance is spent is refused before the body is read.
 */
@Injectable()
export class PhotoUploadInterceptor implements NestInterceptor {
  private readonly parse = multer({
    storage: multer.memoryStorage(),
    limits: {
      // busboy refuses a file once it exceeds the limit: a file of exactly 10 MiB is refused too
      fileSize: UPLOAD_LIMITS.maxBytes - 1,
      files: UPLOAD_LIMITS.maxFiles,
      fields: 10,
      fieldSize: 1024,
      parts: UPLOAD_LIMITS.maxFiles + 10,
      headerPairs: 100,
    },
  }).array(PHOTO_FIELD, UPLOAD_LIMITS.maxFiles);

  constructor(private readonly quota: UploadQuotaService) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const http = context.switchToHttp();
    const req = http.getRequest<Request & { user?: AuthUser }>();
    const res = http.getResponse<Response>();
    if (req.user) await this.quota.refuseWhenSpent(req.user.id);
    await new Promise<void>((resolve, reject) => {
      this.parse(req, res, (error?: unknown) => (error ? reject(uploadErrorFor(error)) : resolve()));
    });
    return next.handle();
  }
}

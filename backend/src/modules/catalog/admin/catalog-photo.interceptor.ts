import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import multer from 'multer';
import { ValidationError } from '../../../common/errors';
import { PhotoTooLargeError, UPLOAD_LIMITS, UPLOAD_MESSAGES } from '../../uploads/image-intake';
import type { Request, Response } from 'express';
import type { Observable } from 'rxjs';

export const CATALOG_PHOTO_FIELD = 'file';
export const CATALOG_PHOTO_MESSAGES = { wrongField: `Send one photo in the form field "${CATALOG_PHOTO_FIELD}"` } as const;

/**
 * Reads the console's one catalogue photo (`multipart/form-data`, field `file`) into memory with
 * the users' upload limits (under 10MB), before the handler runs; the uploads' intake judges it.
 */
@Injectable()
export class CatalogPhotoInterceptor implements NestInterceptor {
  private readonly parse = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: UPLOAD_LIMITS.maxBytes - 1, files: 1, fields: 5, fieldSize: 1024, parts: 6, headerPairs: 100 },
  }).single(CATALOG_PHOTO_FIELD);

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const http = context.switchToHttp();
    await new Promise<void>((resolve, reject) => {
      this.parse(http.getRequest<Request>(), http.getResponse<Response>(), (error?: unknown) => {
        if (!error) return resolve();
        const code = (error as { code?: unknown }).code;
        if (code === 'LIMIT_FILE_SIZE') return reject(new PhotoTooLargeError());
        if (code === 'LIMIT_UNEXPECTED_FILE' || code === 'LIMIT_FILE_COUNT')
          return reject(new ValidationError(CATALOG_PHOTO_MESSAGES.wrongField));
        reject(new ValidationError(UPLOAD_MESSAGES.malformed));
      });
    });
    return next.handle();
  }
}

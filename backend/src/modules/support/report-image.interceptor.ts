import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import multer from 'multer';
import { assertRequestShape } from '../../bootstrap/request-shape';
import { UPLOAD_LIMITS } from '../uploads/image-intake';
import { uploadErrorFor } from '../uploads/photo-upload.interceptor';
import type { Request, Response } from 'express';
import type { Observable } from 'rxjs';

/** The multipart field of "Report an image" that carries a copy of the image. */
export const REPORT_IMAGE_FIELD = 'image';

/**
 * The contact form also takes `multipart/form-data` (its fields, plus one copy of a reported image
 * under 10MB in memory); a JSON body passes through untouched.
 */
@Injectable()
export class ReportImageInterceptor implements NestInterceptor {
  private readonly parse = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: UPLOAD_LIMITS.maxBytes - 1, files: 1, fields: 10, fieldSize: 8 * 1024, parts: 12, headerPairs: 100 },
  }).single(REPORT_IMAGE_FIELD);

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    if (req.is('multipart/form-data')) {
      await new Promise<void>((resolve, reject) => {
        this.parse(req, http.getResponse<Response>(), (error?: unknown) => (error ? reject(uploadErrorFor(error)) : resolve()));
      });
      assertRequestShape(req.body);
    }
    return next.handle();
  }
}

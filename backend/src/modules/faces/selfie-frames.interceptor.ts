import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import multer from 'multer';
import { ValidationError } from '../../common/errors';
import { TURN_RULES } from './face-geometry';
import type { Request, Response } from 'express';
import type { Observable } from 'rxjs';

export const SELFIE_FRAMES_FIELD = 'frames';
/** A camera frame is a JPEG of at most 640 pixels a side: far under this. */
export const MAX_FRAME_BYTES = 512 * 1024;

/**
 * Reads a live selfie's multipart form into memory (never to disk): `challenge_id` and up to
 * TURN_RULES.maxFrames JPEG frames of at most 512 kB. The frames live as long as the request.
 */
@Injectable()
export class SelfieFramesInterceptor implements NestInterceptor {
  private readonly parse = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: MAX_FRAME_BYTES, files: TURN_RULES.maxFrames, fields: 4, fieldSize: 256, parts: TURN_RULES.maxFrames + 4 },
  }).array(SELFIE_FRAMES_FIELD, TURN_RULES.maxFrames);

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    await new Promise<void>((resolve, reject) => {
      this.parse(req, res, (error?: unknown) =>
        error
          ? reject(
              new ValidationError(
                `Send ${TURN_RULES.minFrames} to ${TURN_RULES.maxFrames} camera frames (JPEG, under 512 kB each) and the challenge's id.`,
              ),
            )
          : resolve(),
      );
    });
    return next.handle();
  }
}

import { IDEMPOTENCY_KEY_HEADER } from '@fitting-room/shared/developer-api';
import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { catchError, from, type Observable, of, switchMap, throwError } from 'rxjs';
import { IdempotencyService, requestHash } from './idempotency.service';
import type { RequestWithUser } from '../auth';
import type { Request, Response } from 'express';

/** Says that an answer is the first answer given again (as Stripe's `Idempotent-Replayed`). */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';

type IdempotentRequest = Request & RequestWithUser & { files?: unknown };

/**
 * The `Idempotency-Key` of an @Idempotent() route (after its guards and, on uploads, after the
 * multipart body was read into memory). Without the header the request runs as always.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(private readonly idempotency: IdempotencyService) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const req = http.getRequest<IdempotentRequest>();
    const res = http.getResponse<Response>();
    const key = req.header(IDEMPOTENCY_KEY_HEADER);
    const userId = req.user?.id;
    if (key === undefined || !userId) return next.handle();
    const route = `${req.method} ${(req.route as { path?: string } | undefined)?.path ?? req.path}`;
    const files = Array.isArray(req.files) ? (req.files as Parameters<typeof requestHash>[1]) : undefined;
    const hash = requestHash(req.body, files);
    return from(this.idempotency.begin(userId, key, route, hash)).pipe(
      switchMap((start) => {
        if (start.kind === 'replay') {
          res.setHeader(IDEMPOTENT_REPLAYED_HEADER, 'true');
          res.status(start.statusCode);
          return of(start.response);
        }
        return next.handle().pipe(
          switchMap(async (body: unknown) => {
            await this.idempotency.complete(userId, key, res.statusCode, body);
            return body;
          }),
          catchError((err: unknown) => from(this.idempotency.release(userId, key)).pipe(switchMap(() => throwError(() => err)))),
        );
      }),
    );
  }
}

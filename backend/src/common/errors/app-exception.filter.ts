import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { RateLimitError, ServiceUnavailableError } from './app-error';
import { toErrorBody } from './to-error-body';

/**
 * What of an error may go to the log: its kind, message, SQL state and stack, never the values it
 * carries (a database error's `parameters` hold what a person typed: names, addresses, messages).
 */
export function loggableError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { type: typeof error };
  const e = error as Error & { code?: unknown; driverError?: { code?: unknown } };
  const code = e.driverError?.code ?? e.code;
  return { type: e.name, message: e.message, ...(typeof code === 'string' ? { code } : {}), stack: e.stack };
}

/** The single exception filter: every error leaves the API as `{ statusCode, code, message }`. */
@Catch()
export class AppExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('AppExceptionFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw exception;
    const ctx = host.switchToHttp();
    const res = ctx.getResponse<Response>();
    const req = ctx.getRequest<Request>();
    const { body, unexpected } = toErrorBody(exception);
    if (unexpected) {
      this.logger.error({ err: loggableError(exception), method: req.method, url: req.originalUrl.split('?')[0], code: body.code }, 'request failed');
    }
    if (res.headersSent) {
      res.end();
      return;
    }
    if ((exception instanceof RateLimitError || exception instanceof ServiceUnavailableError) && exception.retryAfterSeconds) {
      res.setHeader('Retry-After', String(exception.retryAfterSeconds));
    }
    res.status(body.statusCode).json(body);
  }
}

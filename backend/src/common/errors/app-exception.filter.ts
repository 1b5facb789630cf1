import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import { RateLimitError, ServiceUnavailableError } from './app-error';
import { isDependencyOutage, toErrorBody } from './to-error-body';
import type { Request, Response } from 'express';

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

/**
 * While a dependency is away every request fails the same way: one warning (without a stack) per
 * kind of failure every `windowMs`, counting the ones it stands for, instead of thousands of
 * identical error lines that bury everything else (a 4 s database restart under load gave 2,239).
 */
export class OutageLog {
  private readonly last = new Map<string, { at: number; suppressed: number }>();

  constructor(
    private readonly windowMs = 5_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Answers the line to log now (with how many alike were held back since the last), or null to stay quiet. */
  take(kind: string): { suppressed: number } | null {
    const seen = this.last.get(kind);
    const now = this.now();
    if (seen && now - seen.at < this.windowMs) {
      seen.suppressed += 1;
      return null;
    }
    this.last.set(kind, { at: now, suppressed: 0 });
    return { suppressed: seen?.suppressed ?? 0 };
  }
}

/** The single exception filter: every error leaves the API as `{ statusCode, code, message }`. */
@Catch()
export class AppExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('AppExceptionFilter');
  private readonly outages = new OutageLog();

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw exception;
    const ctx = host.switchToHttp();
    const res = ctx.getResponse<Response>();
    const req = ctx.getRequest<Request>();
    const { body, unexpected } = toErrorBody(exception);
    if (unexpected && isDependencyOutage(exception)) {
      const { type, message, code } = loggableError(exception);
      const line = this.outages.take(`${type}:${code ?? message}`);
      if (line)
        this.logger.warn(
          { err: { type, message, code }, held_back: line.suppressed, code: body.code },
          'a dependency is away: answering 503',
        );
    } else if (unexpected) {
      this.logger.error(
        { err: loggableError(exception), method: req.method, url: req.originalUrl.split('?')[0], code: body.code },
        'request failed',
      );
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

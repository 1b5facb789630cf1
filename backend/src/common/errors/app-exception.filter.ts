import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import { markExpectedRefusal } from '../logging/expected-refusal';
import { AppError } from './app-error';
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

/**
 * The single exception filter: every error leaves the API as `{ statusCode, code, message }`.
 *
 * What it logs: a bug or an outage at error level with its stack (an outage once per kind and
 * window); a refusal made on purpose (an AppError with a 4xx, or an expected 501/503:
 * EXPECTED_REFUSAL_STATUSES) never with a stack: a 5xx one at info, once per kind, route and window
 * (an anonymous caller repeating it cannot flood the log), a 4xx one only in the request log.
 */
@Catch()
export class AppExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('AppExceptionFilter');
  private readonly outages = new OutageLog();
  private readonly refusals = new OutageLog();

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
    } else {
      markExpectedRefusal(res);
      const url = req.originalUrl.split('?')[0];
      const line = body.statusCode >= 500 ? this.refusals.take(`${body.statusCode}:${body.code}:${req.method}:${url}`) : null;
      if (line)
        this.logger.log(
          { status: body.statusCode, code: body.code, method: req.method, url, held_back: line.suppressed },
          'request refused on purpose',
        );
    }
    if (res.headersSent) {
      res.end();
      return;
    }
    // 429 and 503 that know when to come back (RateLimitError, ServiceUnavailableError, a paused custom pose)
    if (exception instanceof AppError && exception.retryAfterSeconds) {
      res.setHeader('Retry-After', String(Math.max(1, Math.ceil(exception.retryAfterSeconds))));
    }
    res.status(body.statusCode).json(body);
  }
}

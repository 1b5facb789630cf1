import { HttpException, HttpStatus } from '@nestjs/common';
import { AppError } from './app-error';
import { DatabaseErrorMap, ErrorBody, ErrorCode, ErrorMessages, isApiErrorCode } from './error-catalogue';

const HTTP_STATUS_CODES: Record<number, { code: ErrorCode; message?: string }> = {
  400: { code: ErrorCode.VALIDATION_ERROR },
  401: { code: ErrorCode.AUTH_ERROR, message: ErrorMessages.auth },
  403: { code: ErrorCode.FORBIDDEN, message: ErrorMessages.permissionDenied },
  404: { code: ErrorCode.NOT_FOUND, message: ErrorMessages.resourceNotFound },
  408: { code: ErrorCode.TIMEOUT_ERROR, message: ErrorMessages.timeout('request') },
  409: { code: ErrorCode.CONFLICT, message: ErrorMessages.conflict },
  413: { code: ErrorCode.PAYLOAD_TOO_LARGE, message: ErrorMessages.payloadTooLarge },
  429: { code: ErrorCode.RATE_LIMITED, message: ErrorMessages.rateLimited },
  503: { code: ErrorCode.SERVICE_UNAVAILABLE, message: ErrorMessages.serviceUnavailable },
};

export interface ClassifiedError {
  body: ErrorBody;
  /** true when the error is a bug or an outage, to be logged with its stack */
  unexpected: boolean;
}

/**
 * What an operational AppError may answer with a 5xx and still be a refusal made on purpose, not a
 * failure: 501, a feature not set up ("Stripe integration coming soon!"), and 503, busy or not
 * ready (the image work queue is full, a queue refused a job: try again). Other 5xx are failures.
 */
export const EXPECTED_REFUSAL_STATUSES: ReadonlySet<number> = new Set([501, 503]);

function sqlState(error: unknown): string | undefined {
  const e = error as { code?: unknown; driverError?: { code?: unknown } } | null;
  const code = e?.driverError?.code ?? e?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

function httpExceptionMessage(exception: HttpException): string | undefined {
  const response = exception.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (Array.isArray(message)) return message.filter((m) => typeof m === 'string').join('; ') || undefined;
  return typeof message === 'string' ? message : undefined;
}

const OUTAGE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** SQLSTATEs of a database that went away, restarts or is full: class 08, shutdown, starting up, too many connections */
const OUTAGE_STATES = /^(08...|57P01|57P02|57P03|53300)$/;
const OUTAGE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection is not established|the database system is (starting up|shutting down|in recovery mode)/i;

/**
 * A dependency that is away (PostgreSQL restarting, a connection cut): 503 SERVICE_UNAVAILABLE,
 * the same answer as a refused queue, rather than a 500 that reads like a bug in the request.
 */
export function isDependencyOutage(error: unknown): boolean {
  for (const e of [error, (error as { driverError?: unknown } | null)?.driverError, (error as { cause?: unknown } | null)?.cause]) {
    if (!e || typeof e !== 'object') continue;
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (OUTAGE_CODES.has(code) || OUTAGE_STATES.test(code))) return true;
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string' && OUTAGE_MESSAGES.test(message)) return true;
    // TypeORM releases a query runner whose connection the server cut (a restart): the query then finds it released
    if ((e as { name?: unknown }).name === 'QueryRunnerAlreadyReleasedError') return true;
  }
  return false;
}

/** body-parser's "too large": a form or JSON body, not a photo, so say what was too large (not the photos' 10MB). */
function tooLarge(error: unknown): ClassifiedError {
  const limit = (error as { limit?: unknown }).limit;
  const size =
    typeof limit === 'number'
      ? ` (at most ${limit >= 1024 * 1024 ? `${Math.round(limit / 1024 / 1024)} MB` : `${Math.round(limit / 1024)} kB`})`
      : '';
  return {
    body: { statusCode: 413, code: ErrorCode.PAYLOAD_TOO_LARGE, message: `The request body is too large${size}.` },
    unexpected: false,
  };
}

/** Maps anything thrown to the catalogue's `{ statusCode, code, message }`; never exposes stacks or SQL. */
export function toErrorBody(error: unknown): ClassifiedError {
  if (error instanceof AppError) {
    return {
      body: { statusCode: error.statusCode, code: error.code, message: error.message, ...error.extra },
      unexpected: !error.operational || (error.statusCode >= 500 && !EXPECTED_REFUSAL_STATUSES.has(error.statusCode)),
    };
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    const cause = (error as { cause?: { type?: unknown } }).cause;
    if (cause instanceof SyntaxError || cause?.type === 'entity.parse.failed') {
      return { body: { statusCode: 400, code: ErrorCode.VALIDATION_ERROR, message: 'Request body is not valid JSON' }, unexpected: false };
    }
    if (cause?.type === 'entity.too.large') return tooLarge(cause);
    if (cause instanceof URIError) {
      return { body: { statusCode: 400, code: ErrorCode.VALIDATION_ERROR, message: 'The request path is not valid' }, unexpected: false };
    }
    const known = HTTP_STATUS_CODES[status];
    const ownCode = (error.getResponse() as { code?: unknown })?.code;
    // only a code of the catalogue leaves the API (the document lists them as an enum)
    const code = isApiErrorCode(ownCode)
      ? ownCode
      : (known?.code ?? (status >= 500 ? ErrorCode.UNKNOWN_ERROR : ErrorCode.VALIDATION_ERROR));
    // 400s carry their own wording (validation); the others use the catalogue's wording.
    const message =
      status === HttpStatus.BAD_REQUEST || typeof ownCode === 'string'
        ? (httpExceptionMessage(error) ?? 'Invalid request')
        : (known?.message ?? (status >= 500 ? ErrorMessages.unknown : (httpExceptionMessage(error) ?? ErrorMessages.unknown)));
    return { body: { statusCode: status, code, message }, unexpected: status >= 500 };
  }
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'EntityNotFoundError' || name === 'EntityNotFound') {
    return { body: { statusCode: 404, code: ErrorCode.RECORD_NOT_FOUND, message: ErrorMessages.noRows }, unexpected: false };
  }
  if (isDependencyOutage(error)) {
    return { body: { statusCode: 503, code: ErrorCode.SERVICE_UNAVAILABLE, message: ErrorMessages.serviceUnavailable }, unexpected: true };
  }
  const state = sqlState(error);
  if (state && DatabaseErrorMap[state]) {
    const mapped = DatabaseErrorMap[state];
    return { body: { statusCode: mapped.status, code: mapped.code, message: mapped.message }, unexpected: mapped.status >= 500 };
  }
  // body-parser errors (malformed JSON, too large) arrive as plain errors with a status
  const status =
    (error as { status?: unknown; statusCode?: unknown } | null)?.status ?? (error as { statusCode?: unknown } | null)?.statusCode;
  const type = (error as { type?: unknown } | null)?.type;
  if (typeof status === 'number' && status >= 400 && status < 500 && typeof type === 'string') {
    if (type === 'entity.parse.failed') {
      return { body: { statusCode: 400, code: ErrorCode.VALIDATION_ERROR, message: 'Request body is not valid JSON' }, unexpected: false };
    }
    if (type === 'entity.too.large') return tooLarge(error);
    const known = HTTP_STATUS_CODES[status];
    return {
      body: { statusCode: status, code: known?.code ?? ErrorCode.VALIDATION_ERROR, message: known?.message ?? 'Invalid request' },
      unexpected: false,
    };
  }
  return { body: { statusCode: 500, code: ErrorCode.UNKNOWN_ERROR, message: ErrorMessages.unknown }, unexpected: true };
}

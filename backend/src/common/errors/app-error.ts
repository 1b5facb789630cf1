import { type ApiErrorCode, type ErrorBody, ErrorCode, ErrorMessages } from './error-catalogue';

/** The fields an error body may carry besides statusCode, code and message (error-catalogue.ts ErrorBody). */
export type ErrorBodyExtra = Omit<ErrorBody, 'statusCode' | 'code' | 'message'>;

/**
 * Base of every error the application raises on purpose. `operational` errors are expected
 * (bad input, missing credits); others are bugs and are logged with their stack.
 */
export class AppError extends Error {
  /** more fields of the body (CUSTOM_POSE_NOT_UNDERSTOOD's `not_understood`); set by the subclasses that have them */
  declare readonly extra?: ErrorBodyExtra;
  /** sent as Retry-After (seconds) by the exception filter when set (429, 503) */
  declare readonly retryAfterSeconds?: number;

  constructor(
    readonly code: ApiErrorCode,
    message: string,
    readonly statusCode = 500,
    readonly operational = true,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

export class ValidationError extends AppError {
  constructor(message: string) {
    super(ErrorCode.VALIDATION_ERROR, message, 400);
  }
}

export class InsufficientCreditsError extends AppError {
  constructor(
    readonly required: number,
    readonly available: number,
  ) {
    super(ErrorCode.INSUFFICIENT_CREDITS, ErrorMessages.insufficientCredits(required, available), 400);
  }
}

export class TimeoutError extends AppError {
  constructor(readonly what: string) {
    super(ErrorCode.TIMEOUT_ERROR, ErrorMessages.timeout(what), 408);
  }
}

export class GenerationError extends AppError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(ErrorCode.GENERATION_ERROR, message, 500, true, options);
  }
}

export class NetworkError extends AppError {
  constructor(options?: { cause?: unknown }) {
    super(ErrorCode.NETWORK_ERROR, ErrorMessages.network, 502, true, options);
  }
}

export class AuthError extends AppError {
  constructor(message: string = ErrorMessages.auth) {
    super(ErrorCode.AUTH_ERROR, message, 401);
  }
}

export class ForbiddenError extends AppError {
  constructor(message: string = ErrorMessages.permissionDenied) {
    super(ErrorCode.FORBIDDEN, message, 403);
  }
}

export class NotFoundError extends AppError {
  constructor(message: string = ErrorMessages.noRows) {
    super(ErrorCode.RECORD_NOT_FOUND, message, 404);
  }
}

export class ConflictError extends AppError {
  constructor(message: string = ErrorMessages.conflict) {
    super(ErrorCode.CONFLICT, message, 409);
  }
}

export class RateLimitError extends AppError {
  /** sent as Retry-After (seconds) by the exception filter when set */
  constructor(
    message: string = ErrorMessages.rateLimited,
    override readonly retryAfterSeconds?: number,
  ) {
    super(ErrorCode.RATE_LIMITED, message, 429);
  }
}

export class ServiceUnavailableError extends AppError {
  /** sent as Retry-After (seconds) by the exception filter when set */
  constructor(
    message: string = ErrorMessages.serviceUnavailable,
    override readonly retryAfterSeconds?: number,
  ) {
    super(ErrorCode.SERVICE_UNAVAILABLE, message, 503);
  }
}

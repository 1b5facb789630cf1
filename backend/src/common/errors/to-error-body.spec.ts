import {
  BadRequestException,
  ForbiddenException,
  NotFoundException,
  PayloadTooLargeException,
  UnauthorizedException,
} from '@nestjs/common';
import { ThrottlerException } from '@nestjs/throttler';
import { EntityNotFoundError, QueryFailedError, QueryRunnerAlreadyReleasedError } from 'typeorm';
import {
  AuthError,
  ConflictError,
  ForbiddenError,
  GenerationError,
  InsufficientCreditsError,
  NetworkError,
  NotFoundError,
  AppError,
  RateLimitError,
  ServiceUnavailableError,
  TimeoutError,
  ValidationError,
} from './app-error';
import { ErrorCode } from './error-catalogue';
import { toErrorBody } from './to-error-body';

describe('toErrorBody: the catalogue of docs/product.md', () => {
  it.each([
    [new InsufficientCreditsError(3, 1), 400, ErrorCode.INSUFFICIENT_CREDITS, 'Insufficient credits. Required: 3, Available: 1.'],
    [new ValidationError('Please upload image files only'), 400, ErrorCode.VALIDATION_ERROR, 'Please upload image files only'],
    [new TimeoutError('generation request'), 408, ErrorCode.TIMEOUT_ERROR, 'Operation timed out: generation request. Please try again.'],
    [new GenerationError('Generation failed'), 500, ErrorCode.GENERATION_ERROR, 'Generation failed'],
    [new NetworkError(), 502, ErrorCode.NETWORK_ERROR, 'Network error. Please check your connection and try again.'],
    [new AuthError(), 401, ErrorCode.AUTH_ERROR, 'Authentication error. Please sign in again.'],
    [new ForbiddenError(), 403, ErrorCode.FORBIDDEN, 'Permission denied.'],
    [new NotFoundError(), 404, ErrorCode.RECORD_NOT_FOUND, 'No rows found.'],
    [new ConflictError('A generation is already running'), 409, ErrorCode.CONFLICT, 'A generation is already running'],
    [new RateLimitError(), 429, ErrorCode.RATE_LIMITED, 'Too many requests. Please try again later.'],
  ])('%p -> %i %s', (error, statusCode, code, message) => {
    expect(toErrorBody(error).body).toEqual({ statusCode, code, message });
  });

  it.each([
    ['23505', 409, ErrorCode.DUPLICATE_RECORD, 'This record already exists.'],
    ['23503', 409, ErrorCode.RELATED_RECORD_NOT_FOUND, 'Related record not found.'],
    ['23502', 400, ErrorCode.REQUIRED_FIELD_MISSING, 'Required field is missing.'],
    ['42501', 403, ErrorCode.PERMISSION_DENIED, 'Permission denied.'],
    ['42P01', 500, ErrorCode.RESOURCE_NOT_FOUND, 'Resource not found.'],
  ])('database code %s (wrapped by TypeORM) -> %i', (sqlState, statusCode, code, message) => {
    const driverError = Object.assign(new Error('relation "secret_table" violates something'), { code: sqlState });
    const error = new QueryFailedError('INSERT INTO secret_table VALUES ($1)', ['x'], driverError);
    const { body } = toErrorBody(error);
    expect(body).toEqual({ statusCode, code, message });
    expect(JSON.stringify(body)).not.toMatch(/secret_table|INSERT/);
  });

  it('maps an entity lookup that found nothing to 404 "No rows found."', () => {
    expect(toErrorBody(new EntityNotFoundError('UserEntity', { id: 'x' })).body).toEqual({
      statusCode: 404,
      code: ErrorCode.RECORD_NOT_FOUND,
      message: 'No rows found.',
    });
  });

  it("answers only codes of the catalogue: an HTTP error carrying another code gets its status's", () => {
    expect(toErrorBody(new ForbiddenException({ code: 'TWO_FACTOR_REQUIRED', message: 'Turn it on' })).body).toEqual({
      statusCode: 403,
      code: 'TWO_FACTOR_REQUIRED',
      message: 'Turn it on',
    });
    expect(toErrorBody(new ForbiddenException({ code: 'SOMETHING_ELSE', message: 'No' })).body).toEqual({
      statusCode: 403,
      code: ErrorCode.FORBIDDEN,
      message: 'No',
    });
  });

  it('keeps validation wording of a 400 and uses the catalogue for other HTTP errors', () => {
    expect(toErrorBody(new BadRequestException({ code: ErrorCode.VALIDATION_ERROR, message: 'email must be an email' })).body).toEqual({
      statusCode: 400,
      code: ErrorCode.VALIDATION_ERROR,
      message: 'email must be an email',
    });
    expect(toErrorBody(new UnauthorizedException('jwt expired')).body).toEqual({
      statusCode: 401,
      code: ErrorCode.AUTH_ERROR,
      message: 'Authentication error. Please sign in again.',
    });
    expect(toErrorBody(new ForbiddenException()).body.code).toBe(ErrorCode.FORBIDDEN);
    expect(toErrorBody(new NotFoundException('Cannot GET /api/nope')).body).toEqual({
      statusCode: 404,
      code: ErrorCode.NOT_FOUND,
      message: 'Resource not found.',
    });
    expect(toErrorBody(new PayloadTooLargeException()).body).toEqual({
      statusCode: 413,
      code: ErrorCode.PAYLOAD_TOO_LARGE,
      message: 'File size must be less than 10MB',
    });
    expect(toErrorBody(new ThrottlerException()).body).toEqual({
      statusCode: 429,
      code: ErrorCode.RATE_LIMITED,
      message: 'Too many requests. Please try again later.',
    });
  });

  it.each([
    ['a 4xx refusal', new ValidationError('Please upload image files only'), false],
    ['a busy 503 (the image work queue is full)', new ServiceUnavailableError('We are processing many photos right now.', 2), false],
    ['a 501 of a feature not set up', new AppError(ErrorCode.SERVICE_UNAVAILABLE, 'Stripe integration coming soon!', 501), false],
    ['a failed generation (500)', new GenerationError('Generation failed'), true],
    ['a vendor that failed (502)', new NetworkError(), true],
    ['a 503 raised as a bug (not operational)', new AppError(ErrorCode.SERVICE_UNAVAILABLE, 'x', 503, false), true],
  ])('logs %s with a stack only when it is a failure: unexpected %p', (_label, error, unexpected) => {
    expect(toErrorBody(error).unexpected).toBe(unexpected);
  });

  it('turns anything unknown into a 500 with the generic message and marks it unexpected', () => {
    const error = new TypeError("Cannot read properties of undefined (reading 'password_hash') at /srv/app/x.js:10");
    const result = toErrorBody(error);
    expect(result).toEqual({
      body: { statusCode: 500, code: ErrorCode.UNKNOWN_ERROR, message: 'An unexpected error occurred. Please try again.' },
      unexpected: true,
    });
    expect(toErrorBody('a string').body.code).toBe(ErrorCode.UNKNOWN_ERROR);
    expect(toErrorBody(null).body.code).toBe(ErrorCode.UNKNOWN_ERROR);
  });

  it('does not treat an unknown SQLSTATE as a catalogue code', () => {
    const error = new QueryFailedError('SELECT 1/0', [], Object.assign(new Error('division by zero'), { code: '22012' }));
    expect(toErrorBody(error).body).toEqual({
      statusCode: 500,
      code: ErrorCode.UNKNOWN_ERROR,
      message: 'An unexpected error occurred. Please try again.',
    });
  });

  it('answers 503 SERVICE_UNAVAILABLE when PostgreSQL is away or restarting, not a 500', () => {
    const unavailable = {
      statusCode: 503,
      code: ErrorCode.SERVICE_UNAVAILABLE,
      message: 'The service is temporarily unavailable. Please try again.',
    };
    const cases = [
      new QueryFailedError('SELECT 1', [], new Error('Connection terminated unexpectedly')),
      new QueryFailedError(
        'SELECT 1',
        [],
        Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      ),
      Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      new Error('timeout exceeded when trying to connect'),
      new QueryRunnerAlreadyReleasedError(),
    ];
    for (const error of cases) expect(toErrorBody(error).body).toEqual(unavailable);
  });
});

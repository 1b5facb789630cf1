import type { ErrorResponseDto } from '@fitting-room/api-client';

/** A code of the catalogue (or of a feature): see the API's ErrorResponseDto. */
export type ErrorCode = ErrorResponseDto['code'];

/**
 * The client-side half of the error catalogue (docs/product.md): every failed API call
 * becomes an `ApiError` whose `message` can be shown to the user as it is.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    message: string,
    /** HTTP status; 0 when no response arrived. */
    readonly status: number,
    readonly code: ErrorCode,
    /** CUSTOM_POSE_NOT_UNDERSTOOD: the words, numbers and characters the custom-pose check did not understand */
    readonly notUnderstood?: NonNullable<ErrorResponseDto['not_understood']>,
  ) {
    super(message);
  }
}

export const NETWORK_ERROR_MESSAGE = 'Network error. Please check your connection and try again.';
export const UNKNOWN_ERROR_MESSAGE = 'An unexpected error occurred. Please try again.';

function isErrorBody(value: unknown): value is ErrorResponseDto {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ErrorResponseDto).message === 'string' &&
    typeof (value as ErrorResponseDto).statusCode === 'number'
  );
}

/** True for the error a query or request gets when its AbortSignal fires. */
export function isAbortError(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/**
 * Maps what the generated client returns as `error` to an `ApiError`: the API's catalogue body
 * (`{ statusCode, code, message }`, whose message is the product's wording), a network failure, or
 * anything else. An abort is passed through untouched so that TanStack Query can recognise it.
 */
export function toApiError(error: unknown, response?: Response): unknown {
  if (isAbortError(error)) return error;
  if (isErrorBody(error)) return new ApiError(error.message, error.statusCode, error.code, error.not_understood ?? undefined);
  // fetch() rejects with a TypeError when the request never got an answer.
  if (error instanceof TypeError && !response) return new ApiError(NETWORK_ERROR_MESSAGE, 0, 'NETWORK_ERROR');
  return new ApiError(UNKNOWN_ERROR_MESSAGE, response?.status ?? 0, 'UNKNOWN_ERROR');
}

/** What every generated SDK function resolves to (hey-api's "fields" response style). */
interface SdkResult<TData> {
  data?: TData;
  error?: unknown;
  response?: Response;
}

/** Awaits a generated SDK call and returns its data and response, or throws an `ApiError`. */
export async function callApi<TData>(call: Promise<SdkResult<TData>>): Promise<{ data: TData; response: Response | undefined }> {
  const { data, error, response } = await call;
  if (error !== undefined || data === undefined) throw toApiError(error, response);
  return { data, response };
}

/** Awaits a generated SDK call and returns its data, or throws an `ApiError`. */
export async function unwrap<TData>(call: Promise<SdkResult<TData>>): Promise<TData> {
  return (await callApi(call)).data;
}

/** The text to show for any error thrown by `unwrap` (or anything else). */
export function errorMessage(error: unknown): string {
  return error instanceof ApiError ? error.message : UNKNOWN_ERROR_MESSAGE;
}

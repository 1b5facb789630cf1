/**
 * The error catalogue of docs/product.md: one code, HTTP status and wording per kind.
 * Every error body the API returns is `{ statusCode, code, message }` built from this table.
 */
export enum ErrorCode {
  INSUFFICIENT_CREDITS = 'INSUFFICIENT_CREDITS',
  VALIDATION_ERROR = 'VALIDATION_ERROR',
  TIMEOUT_ERROR = 'TIMEOUT_ERROR',
  GENERATION_ERROR = 'GENERATION_ERROR',
  NETWORK_ERROR = 'NETWORK_ERROR',
  AUTH_ERROR = 'AUTH_ERROR',
  FORBIDDEN = 'FORBIDDEN',
  NOT_FOUND = 'NOT_FOUND',
  RECORD_NOT_FOUND = 'RECORD_NOT_FOUND',
  CONFLICT = 'CONFLICT',
  DUPLICATE_RECORD = 'DUPLICATE_RECORD',
  RELATED_RECORD_NOT_FOUND = 'RELATED_RECORD_NOT_FOUND',
  REQUIRED_FIELD_MISSING = 'REQUIRED_FIELD_MISSING',
  PERMISSION_DENIED = 'PERMISSION_DENIED',
  RESOURCE_NOT_FOUND = 'RESOURCE_NOT_FOUND',
  PAYLOAD_TOO_LARGE = 'PAYLOAD_TOO_LARGE',
  RATE_LIMITED = 'RATE_LIMITED',
  SERVICE_UNAVAILABLE = 'SERVICE_UNAVAILABLE',
  UNKNOWN_ERROR = 'UNKNOWN_ERROR',
}

export const ErrorMessages = {
  insufficientCredits: (required: number, available: number) =>
    `Insufficient credits. Required: ${required}, Available: ${available}.`,
  timeout: (what: string) => `Operation timed out: ${what}. Please try again.`,
  network: 'Network error. Please check your connection and try again.',
  auth: 'Authentication error. Please sign in again.',
  unknown: 'An unexpected error occurred. Please try again.',
  duplicate: 'This record already exists.',
  relatedMissing: 'Related record not found.',
  requiredMissing: 'Required field is missing.',
  permissionDenied: 'Permission denied.',
  resourceNotFound: 'Resource not found.',
  noRows: 'No rows found.',
  payloadTooLarge: 'File size must be less than 10MB',
  rateLimited: 'Too many requests. Please try again later.',
  serviceUnavailable: 'The service is temporarily unavailable. Please try again.',
  conflict: 'This action conflicts with the current state. Please refresh and try again.',
} as const;

/** PostgreSQL SQLSTATE codes named by the product rules, and what the API answers for each. */
export const DatabaseErrorMap: Record<string, { status: number; code: ErrorCode; message: string }> = {
  '23505': { status: 409, code: ErrorCode.DUPLICATE_RECORD, message: ErrorMessages.duplicate },
  '23503': { status: 409, code: ErrorCode.RELATED_RECORD_NOT_FOUND, message: ErrorMessages.relatedMissing },
  '23502': { status: 400, code: ErrorCode.REQUIRED_FIELD_MISSING, message: ErrorMessages.requiredMissing },
  '42501': { status: 403, code: ErrorCode.PERMISSION_DENIED, message: ErrorMessages.permissionDenied },
  '42P01': { status: 500, code: ErrorCode.RESOURCE_NOT_FOUND, message: ErrorMessages.resourceNotFound },
};

export interface ErrorBody {
  statusCode: number;
  code: ErrorCode | string;
  message: string;
}

/**
 * The error catalogue of docs/product.md: one code, HTTP status and wording per kind, and below it
 * the codes of features (auth, the custom pose's safety). Every error body the API returns is
 * `{ statusCode, code, message }` with a code of this file: AppError only takes these.
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

/** Codes of the auth feature, beyond the catalogue's AUTH_ERROR (an invalid or expired session). */
export enum AuthErrorCode {
  INVALID_CREDENTIALS = 'INVALID_CREDENTIALS',
  /** a mailed link (verification, password reset) that is unknown, used, expired or forged */
  INVALID_LINK = 'INVALID_LINK',
  /** a wrong two-factor code or recovery code */
  INVALID_CODE = 'INVALID_CODE',
  /** the second step of a sign-in came too late or after too many wrong codes */
  MFA_EXPIRED = 'MFA_EXPIRED',
  /** uploading and generating need a verified email address */
  EMAIL_NOT_VERIFIED = 'EMAIL_NOT_VERIFIED',
  /** uploading and generating need the 18+ confirmation */
  AGE_NOT_CONFIRMED = 'AGE_NOT_CONFIRMED',
  /** staff routes need two-factor on (AUTH_REQUIRE_STAFF_2FA) */
  TWO_FACTOR_REQUIRED = 'TWO_FACTOR_REQUIRED',
  /** change password: the current password is wrong */
  WRONG_PASSWORD = 'WRONG_PASSWORD',
  /** change password on an account that signs in with Google only */
  NO_PASSWORD = 'NO_PASSWORD',
  /** an admin suspended the account */
  ACCOUNT_SUSPENDED = 'ACCOUNT_SUSPENDED',
}

/** Codes of the custom pose's safety gate. */
export enum SafetyErrorCode {
  /** 429: too many refused custom poses within an hour paused them for the account */
  CUSTOM_POSE_PAUSED = 'CUSTOM_POSE_PAUSED',
}

/** Every `code` an error body can carry: the catalogue's and the features'. */
export type ApiErrorCode = ErrorCode | AuthErrorCode | SafetyErrorCode;

/** The same, as a list (the OpenAPI document's enum of ErrorResponseDto.code). */
export const API_ERROR_CODES: readonly ApiErrorCode[] = [
  ...Object.values(ErrorCode),
  ...Object.values(AuthErrorCode),
  ...Object.values(SafetyErrorCode),
];

export function isApiErrorCode(value: unknown): value is ApiErrorCode {
  return typeof value === 'string' && (API_ERROR_CODES as readonly string[]).includes(value);
}

export const ErrorMessages = {
  insufficientCredits: (required: number, available: number) => `Insufficient credits. Required: ${required}, Available: ${available}.`,
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
  /** checkout and the billing portal while payments are not configured (no STRIPE_SECRET_KEY) */
  checkoutComingSoon: 'Stripe integration coming soon!',
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
  code: ApiErrorCode;
  message: string;
}

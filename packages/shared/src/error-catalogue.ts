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
  /** an admin suspended the account (403 at sign-in; 401 when it ends a session: refresh or any call) */
  ACCOUNT_SUSPENDED = 'ACCOUNT_SUSPENDED',
  /** 401: the session reached its end (AUTH_SESSION_TTL_DAYS after sign-in) */
  SESSION_EXPIRED = 'SESSION_EXPIRED',
  /** 401: the session ended because the password was changed (on another device, or through a reset link) */
  PASSWORD_CHANGED = 'PASSWORD_CHANGED',
  /** 401: the session ended for safety: a refresh token it had replaced came back after the grace window (a stolen copy) */
  SESSION_REVOKED = 'SESSION_REVOKED',
  /** 403: deleting the account needs the password, a two-factor code, or (Google-only) a fresh Google sign-in */
  REAUTH_REQUIRED = 'REAUTH_REQUIRED',
}

/** Codes of the custom pose's safety gate. */
export enum SafetyErrorCode {
  /** 429: too many refused custom poses within an hour paused them for the account (with Retry-After) */
  CUSTOM_POSE_PAUSED = 'CUSTOM_POSE_PAUSED',
  /**
   * 400: the custom pose has words, numbers or characters the check does not understand (another
   * language, a name, a misspelling): nothing is generated, nothing is counted against the account,
   * and the body's `not_understood` names them with close words the check knows.
   */
  CUSTOM_POSE_NOT_UNDERSTOOD = 'CUSTOM_POSE_NOT_UNDERSTOOD',
}

/** Codes of the developer API: personal API tokens and idempotent starts. */
export enum DeveloperErrorCode {
  /** 403: the route takes a signed-in session only (the console, password, email, two-factor, tokens, webhooks...) */
  API_TOKEN_NOT_ALLOWED = 'API_TOKEN_NOT_ALLOWED',
  /** 403: the API token lacks the scope the route needs (the message names it) */
  INSUFFICIENT_SCOPE = 'INSUFFICIENT_SCOPE',
  /** 422: an Idempotency-Key used before with another request (another body, method or path) */
  IDEMPOTENCY_KEY_REUSED = 'IDEMPOTENCY_KEY_REUSED',
  /** 409: the first request with this Idempotency-Key is still being answered */
  IDEMPOTENCY_KEY_IN_USE = 'IDEMPOTENCY_KEY_IN_USE',
}

/** Codes of the face checks ("Only you": docs/safety.md); wording in face-checks.ts. */
export enum FaceErrorCode {
  /** 400: no face found in a photo */
  FACE_NOT_FOUND = 'FACE_NOT_FOUND',
  /** 400: more than one face in a photo */
  FACE_SEVERAL = 'FACE_SEVERAL',
  /** 400: the face is too small or too blurry for a try-on */
  FACE_UNCLEAR = 'FACE_UNCLEAR',
  /** 400: a generation's photos show different people (the message names the photo) */
  FACE_MIXED_SET = 'FACE_MIXED_SET',
  /** 403: the consent to the face checks was not given yet */
  FACE_CONSENT_REQUIRED = 'FACE_CONSENT_REQUIRED',
  /** 403: lingerie, spicy (the first time) and video need the live selfie */
  FACE_SELFIE_REQUIRED = 'FACE_SELFIE_REQUIRED',
  /** 403: a photo does not match the face verified by the live selfie */
  FACE_NOT_VERIFIED = 'FACE_NOT_VERIFIED',
  /** 400: the live selfie failed: another person, no head turn (a still picture), no face, or its challenge expired */
  FACE_SELFIE_FAILED = 'FACE_SELFIE_FAILED',
}

/** Every `code` an error body can carry: the catalogue's and the features'. */
export type ApiErrorCode = ErrorCode | AuthErrorCode | SafetyErrorCode | DeveloperErrorCode | FaceErrorCode;

/** The same, as a list (the OpenAPI document's enum of ErrorResponseDto.code). */
export const API_ERROR_CODES: readonly ApiErrorCode[] = [
  ...Object.values(ErrorCode),
  ...Object.values(AuthErrorCode),
  ...Object.values(SafetyErrorCode),
  ...Object.values(DeveloperErrorCode),
  ...Object.values(FaceErrorCode),
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

/** The developer API's wording (DeveloperErrorCode). */
export const DeveloperMessages = {
  apiTokenNotAllowed: 'API tokens cannot be used for this request: sign in to do it.',
  insufficientScope: (scope: string) => `This API token does not have the scope ${scope}.`,
  idempotencyKeyReused: 'This Idempotency-Key was used with another request. Use a new key for a new request.',
  idempotencyKeyInUse: 'A request with this Idempotency-Key is still in progress. Retry in a moment.',
  idempotencyKeyInvalid: 'An Idempotency-Key is 1 to 255 printable characters.',
} as const;

/** PostgreSQL SQLSTATE codes named by the product rules, and what the API answers for each. */
export const DatabaseErrorMap: Record<string, { status: number; code: ErrorCode; message: string }> = {
  '23505': { status: 409, code: ErrorCode.DUPLICATE_RECORD, message: ErrorMessages.duplicate },
  '23503': { status: 409, code: ErrorCode.RELATED_RECORD_NOT_FOUND, message: ErrorMessages.relatedMissing },
  '23502': { status: 400, code: ErrorCode.REQUIRED_FIELD_MISSING, message: ErrorMessages.requiredMissing },
  '42501': { status: 403, code: ErrorCode.PERMISSION_DENIED, message: ErrorMessages.permissionDenied },
  '42P01': { status: 500, code: ErrorCode.RESOURCE_NOT_FOUND, message: ErrorMessages.resourceNotFound },
};

/** A word of a custom pose the check did not understand, with close words it knows (never a word of the block lists). */
export interface NotUnderstoodWord {
  /** as typed */
  word: string;
  /** close words the check understands, the closest first (may be empty) */
  suggestions: string[];
}

/** What a CUSTOM_POSE_NOT_UNDERSTOOD error (and the custom-pose check) says was not understood. */
export interface CustomPoseNotUnderstood {
  words: NotUnderstoodWord[];
  /** characters a pose description has no use for ('"', "+", "#", emoji...) */
  characters: string[];
  /** the text is (partly) in another language or script: custom poses are English-only for now */
  other_language: boolean;
}

/** The custom pose's wording that both the API and the user app show. */
export const CustomPoseMessages = {
  englishOnly: 'Custom poses are in English only for now.',
} as const;

export interface ErrorBody {
  statusCode: number;
  code: ApiErrorCode;
  message: string;
  /** only with CUSTOM_POSE_NOT_UNDERSTOOD */
  not_understood?: CustomPoseNotUnderstood;
}

import { FaceErrorCode } from '@fitting-room/shared';
import { ApiError } from '@fitting-room/shared/browser';

const FACE_CODES: readonly string[] = Object.values(FaceErrorCode);

/** True for a refusal of the face checks ("Only you"): shown at the photos, not as a failed generation. */
export function isFaceRefusal(error: unknown): error is ApiError {
  return error instanceof ApiError && FACE_CODES.includes(error.code);
}

/** What a face refusal asks of the person next: the consent, the live selfie, or only another photo. */
export function faceStepFor(code: string | undefined): 'consent' | 'selfie' | null {
  if (code === FaceErrorCode.FACE_CONSENT_REQUIRED) return 'consent';
  if (code === FaceErrorCode.FACE_SELFIE_REQUIRED) return 'selfie';
  return null;
}

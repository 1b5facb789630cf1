import {
  type FaceStatusDto,
  getFaceStatus,
  giveFaceConsent,
  type SelfieChallengeDto,
  type SelfieResultDto,
  startSelfieChallenge,
  verifySelfie,
} from '@fitting-room/api-client';
import { unwrap } from '@fitting-room/shared/browser';

/** The face checks' routes ("Only you"), through the typed client (each failure is an `ApiError`). */

export type FaceStatus = FaceStatusDto;
export type SelfieChallenge = SelfieChallengeDto;
export type SelfieResult = SelfieResultDto;

export const faceStatusQueryKey = ['faces', 'status'] as const;

export const facesApi = {
  /** GET /api/faces/status: whether the checks run, the consent's sentence and version, and whether a selfie verified the face. */
  status: (signal?: AbortSignal) => unwrap(getFaceStatus({ signal })),
  /** POST /api/faces/consent: the person agrees to the sentence of this version (recorded with the time). */
  consent: (version: string) => unwrap(giveFaceConsent({ body: { version } })),
  /** POST /api/faces/selfie/challenges: the head turn to make, and how many frames to take how far apart. */
  challenge: () => unwrap(startSelfieChallenge()),
  /** POST /api/faces/selfie: the camera frames (JPEG, in order) of a challenge. */
  verify: (challengeId: string, frames: Blob[]) => unwrap(verifySelfie({ body: { challenge_id: challengeId, frames } })),
};

/** Whether a generation of this category and type needs the live selfie (lingerie, spicy, and every video). */
export function needsSelfie(status: Pick<FaceStatus, 'selfie_categories'>, category: string, type: 'image' | 'video'): boolean {
  return type === 'video' || status.selfie_categories.includes(category);
}

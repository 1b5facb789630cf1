/**
 * "Only you" (docs/safety.md): the face checks' wording, one source for the API and the user app.
 * The error codes are in the catalogue (`FaceErrorCode`, error-catalogue.ts).
 */

/** The consent's version: a change of its wording asks everyone again. */
export const FACE_CONSENT_VERSION = '2026-11-28';

/** The sentence the person agrees to, before the first check (recorded with its version and the time). */
export const FACE_CONSENT_TEXT =
  'I agree that Fitting Room checks the face in my photos, my live selfie and my results to make sure they show only me. ' +
  'The face measurements are biometric data: they are computed on Fitting Room’s own servers, never sent to an AI vendor ' +
  'or anyone else, and deleted with the photos they come from (the selfie itself is never stored).';

/** Categories whose first generation (and every video) needs the live selfie. */
export const SELFIE_CATEGORIES: readonly string[] = ['lingerie', 'spicy'];

/** The head turn asked by a live selfie's challenge: the person's own left or right. */
export type SelfieTurn = 'left' | 'right';

export const FaceMessages = {
  notFound: "We couldn't find your face in this photo. Please use a photo where your face is clearly visible, facing the camera.",
  several: 'There is more than one person in this photo. Please use a photo of just you.',
  tooSmall: 'Your face is too small in this photo. Please use one where your face is larger (closer, or cropped nearer to you).',
  blurry: 'Your face is too blurry in this photo. Please use a sharper one.',
  /** a photo of a batch: "Photo 2: ..." */
  inBatch: (index: number, message: string) => `Photo ${index}: ${message}`,
  mixedSet: (differs: number, first: number) =>
    `Photo ${differs} shows a different person from photo ${first}. Please use photos of just you.`,
  consentRequired: 'Please agree to the face check first: it makes sure your photos show only you.',
  selfieRequired: 'Before your first lingerie or spicy look, and before any video, please take a live selfie so we know it’s really you.',
  notVerifiedFace: (photo: number) =>
    `Photo ${photo} doesn't match the face you verified with your live selfie. Please use photos of you, or take the selfie again.`,
  selfieMismatch: "The selfie doesn't match your photos. Please take it yourself, facing the camera in good light.",
  selfieNoTurn: (turn: SelfieTurn) =>
    `We couldn't see your head turn to your ${turn} and back. Please try again: look at the camera, turn your head to your ${turn}, then back.`,
  selfieNoFace: "We couldn't see your face clearly in the selfie. Please face the camera in good light, with nobody else in view.",
  challengeExpired: 'This selfie check has expired. Please start it again.',
  /** the generation failed: its result's face was too far from the person's photos, twice */
  likenessFailed: "The result didn't look enough like you, so we didn't charge you",
} as const;

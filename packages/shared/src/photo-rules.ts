/**
 * The smallest photo a try-on is made from, checked by the API at upload
 * (`backend/src/modules/uploads/image-intake.ts`) and by the user app before it sends anything
 * (`frontend/src/features/generate/photo-rules.ts`), with one message.
 *
 * Why 384 pixels on the shorter side: it is the largest minimum among the vendors this product
 * speaks to (DashScope's Wan image editing takes 384 to 2000 pixels a side; its image-to-video and
 * FASHN 360; fal's Kling try-on 300), so a photo accepted with the local preview renderer is still
 * accepted when the operator sets a vendor, and no vendor is sent a photo it refuses. Below it a
 * face is a few dozen pixels wide: nothing a try-on can keep. A vendor that needs more raises it
 * (the API takes the larger of this and the configured vendor's own minimum).
 */
export const PHOTO_MIN_SIDE = 384;

/** "This photo is too small (120x160). Use a photo at least 384 pixels on its shorter side, showing you clearly." */
export function photoTooSmallMessage(width: number, height: number, minSide: number = PHOTO_MIN_SIDE): string {
  return `This photo is too small (${width}x${height}). Use a photo at least ${minSide} pixels on its shorter side, showing you clearly.`;
}

/**
 * The live selfie's capture (docs/safety.md "Only you"): the camera's picture, taken `frames` times
 * `intervalMs` apart from a playing <video>, each frame a JPEG of at most 640 pixels a side. The
 * frames are sent to our server only (POST /api/faces/selfie) and never kept in the browser.
 */

export const SELFIE_FRAME_MAX_SIDE = 640;
export const SELFIE_JPEG_QUALITY = 0.85;

/** The camera of the front (the person's face), no sound. */
export const SELFIE_CAMERA: MediaStreamConstraints = {
  audio: false,
  video: { facingMode: 'user', width: { ideal: 640 }, height: { ideal: 480 } },
};

/** The size a frame is drawn at: the camera's, scaled down to SELFIE_FRAME_MAX_SIDE on its long side. */
export function frameSize(width: number, height: number, maxSide = SELFIE_FRAME_MAX_SIDE): { width: number; height: number } {
  const scale = Math.min(1, maxSide / Math.max(width, height, 1));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** One frame of the video as a JPEG. */
export function grabFrame(video: HTMLVideoElement, canvas: HTMLCanvasElement): Promise<Blob> {
  const { width, height } = frameSize(video.videoWidth, video.videoHeight);
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d');
  if (!context) return Promise.reject(new Error('This browser cannot read the camera’s picture.'));
  context.drawImage(video, 0, 0, width, height);
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('This browser cannot read the camera’s picture.'))),
      'image/jpeg',
      SELFIE_JPEG_QUALITY,
    ),
  );
}

/**
 * Takes `frames` frames, the first at once and then one every `intervalMs` (measured from the start,
 * so that a slow encoding does not stretch the sequence), calling `onFrame` with how many are taken.
 * Stops with an AbortError when `signal` fires.
 */
export async function captureFrames(
  grab: () => Promise<Blob>,
  options: { frames: number; intervalMs: number; signal?: AbortSignal; onFrame?: (taken: number) => void },
  wait: (ms: number, signal?: AbortSignal) => Promise<void> = sleep,
): Promise<Blob[]> {
  const taken: Blob[] = [];
  const started = Date.now();
  for (let i = 0; i < options.frames; i++) {
    const due = started + i * options.intervalMs - Date.now();
    if (due > 0) await wait(due, options.signal);
    if (options.signal?.aborted) throw new DOMException('The selfie was stopped.', 'AbortError');
    taken.push(await grab());
    options.onFrame?.(taken.length);
  }
  return taken;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new DOMException('The selfie was stopped.', 'AbortError'));
      },
      { once: true },
    );
  });
}

/** What the person is asked to do, in words: "Turn your head to your left, then back". */
export function turnInstruction(turn: 'left' | 'right'): string {
  return `Look at the camera, turn your head to your ${turn}, then back.`;
}

/** Why the camera could not start, in the person's words. */
export function cameraProblem(error: unknown): string {
  const name = error instanceof DOMException ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError')
    return 'The camera is blocked for this site. Please allow the camera in your browser’s settings, then try again.';
  if (name === 'NotFoundError' || name === 'OverconstrainedError')
    return 'We couldn’t find a camera on this device. The selfie has to be taken live with a camera.';
  if (name === 'NotReadableError') return 'The camera is in use by another app. Please close it, then try again.';
  return 'The camera could not start. Please try again.';
}

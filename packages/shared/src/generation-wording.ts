/**
 * The words a person reads while a generation runs, in order (docs/product.md, "Wording"): the
 * user app's own steps before the server has the request, then one per stage of the server's
 * record. The API (`generation-progress.ts`) and the user app (`generation-runner.ts`) both read
 * them from here, so the progress never speaks two ways.
 */
export const PROGRESS_WORDING = {
  /** the user app: checking the choice with the API, before any photo is sent */
  preparing: 'Preparing your photos...',
  /** the user app: sending the photos */
  uploading: 'Uploading your photos...',
  /** stage `creating`: the record is written and the credits held */
  creating: 'Saving your request...',
  /** stage `starting`, with an AI vendor */
  starting: 'Sending it to the studio...',
  /** stage `starting` with the local preview renderer (AI_PROVIDER=preview): no studio, no AI */
  startingPreview: 'Making your preview...',
  /** stage `processing` */
  processing: 'Creating your look (this may take 10-30 seconds)...',
  /** stage `polling`: the n-th status check of the `max` that fit in the generation's time budget */
  polling: (n: number, max: number) => `Still working (${n} of ${max})...`,
  /** stage `finalizing`: the result is copied, watermarked and stored */
  finalizing: 'Finishing touches...',
  complete: 'Complete!',
} as const;

/** Matches a message of `PROGRESS_WORDING.polling` (its numbers in groups 1 and 2). */
export const POLLING_MESSAGE = /^Still working \((\d+) of (\d+)\)\.\.\.$/;

/** The toasts of a generation's start and end in the user app. */
export const GENERATION_TOASTS = {
  started: 'Generation started successfully',
  failed: 'Failed to generate',
  cancelled: 'Generation cancelled',
} as const;

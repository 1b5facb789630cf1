import { PROGRESS_WORDING } from '@fitting-room/shared/generation-wording';
import { ErrorMessages } from '../../common/errors';
import { GenerationStage, GenerationStatus, type GenerationEntity } from './generation.entity';

/** The provider name of the local preview renderer: its generations are "Making your preview...", not sent to a studio. */
export const PREVIEW_PROVIDER_NAME = 'preview';

/**
 * The product's progress messages (docs/product.md), one per stage, in the words of the shared
 * package (`@fitting-room/shared/generation-wording`), which the user app shows too.
 */
export const PROGRESS_MESSAGES = {
  [GenerationStage.Creating]: PROGRESS_WORDING.creating,
  [GenerationStage.Starting]: PROGRESS_WORDING.starting,
  [GenerationStage.Processing]: PROGRESS_WORDING.processing,
  [GenerationStage.Polling]: PROGRESS_WORDING.polling,
  [GenerationStage.Finalizing]: PROGRESS_WORDING.finalizing,
  [GenerationStage.Complete]: PROGRESS_WORDING.complete,
} as const;

/** The generation API's own messages. */
export const GENERATION_MESSAGES = {
  /** docs/product.md */
  missingInput: 'Please upload at least one image, select a template and a pose or custom prompt',
  alreadyRunning: 'A generation is already running',
  /** docs/product.md */
  failed: 'Generation failed',
  startFailed: 'Failed to start generation',
  timeout: ErrorMessages.timeout('generation'),
  cancelled: 'Cancelled',
  photoMissing: 'Generation failed: the photo was deleted',
  notRunning: 'This generation is not running',
  noResult: 'This generation has no result to download',
  notFound: 'Generation not found.',
  tooManyPhotos: 'You can use at most 5 photos per generation',
  poseAndCustom: 'Choose either a pose or a custom prompt, not both',
  templateCategory: 'This template does not belong to this category',
  sceneCategory: 'This pose is not available in this category',
  unknownTemplate: 'Unknown template',
  unknownScene: 'Unknown pose',
  lockedTemplate: (plan: string) => `This template requires ${plan} or higher to access`,
  lockedScene: (plan: string) => `This pose requires ${plan} or higher`,
  videoTier: (plan: string) => `Video generation requires ${plan} or higher`,
} as const;

export interface Progress {
  stage: GenerationStage;
  message: string;
  /** the poll step (0 before the first) */
  poll: number;
  /** the status checks that fit in the generation's budget, the last at its deadline (generation-schedule.ts) */
  max_polls: number;
}

/**
 * The message of a stage. `provider`: the generation's provider; the local preview renderer's
 * start says "Making your preview..." (no studio, no AI).
 */
export function progressMessage(stage: GenerationStage, poll: number, maxPolls: number, error?: string | null, provider?: string): string {
  if (stage === GenerationStage.Failed) return error ?? GENERATION_MESSAGES.failed;
  if (stage === GenerationStage.Polling) return PROGRESS_MESSAGES[GenerationStage.Polling](poll, maxPolls);
  if (stage === GenerationStage.Starting && provider === PREVIEW_PROVIDER_NAME) return PROGRESS_WORDING.startingPreview;
  return PROGRESS_MESSAGES[stage];
}

/** The stages in the order a generation passes them (a final state last). */
export const STAGE_ORDER: Record<GenerationStage, number> = {
  [GenerationStage.Creating]: 0,
  [GenerationStage.Starting]: 1,
  [GenerationStage.Processing]: 2,
  [GenerationStage.Polling]: 3,
  [GenerationStage.Finalizing]: 4,
  [GenerationStage.Complete]: 5,
  [GenerationStage.Failed]: 5,
};

/** The running stages, in order (every generation that completes passed each of them but, with webhooks, perhaps Polling). */
const RUNNING_STAGES = [
  GenerationStage.Creating,
  GenerationStage.Starting,
  GenerationStage.Processing,
  GenerationStage.Polling,
  GenerationStage.Finalizing,
] as const;

/**
 * The progress to report on the way from `from` (the last one reported, if any) to `to`, in order,
 * `to` last: the stages passed in between are reported too, so that a browser that connects late,
 * reconnects, or missed a stage that came and went between two events still shows each of the
 * product's messages in order. A Polling stage is filled in only when a status check happened
 * (`to.poll` > 0), with the last check's number. A final state (complete, failed) fills nothing.
 */
export function progressSteps(from: Progress | undefined, to: Progress, provider?: string): Progress[] {
  if (to.stage === GenerationStage.Complete || to.stage === GenerationStage.Failed) return [to];
  const start = from ? STAGE_ORDER[from.stage] + 1 : 0;
  const passed = RUNNING_STAGES.filter((stage) => STAGE_ORDER[stage] >= start && STAGE_ORDER[stage] < STAGE_ORDER[to.stage])
    .filter((stage) => stage !== GenerationStage.Polling || to.poll > 0)
    .map((stage) => {
      const poll = stage === GenerationStage.Polling ? to.poll : 0;
      return { stage, message: progressMessage(stage, poll, to.max_polls, null, provider), poll, max_polls: to.max_polls };
    });
  return [...passed, to];
}

/** The fields of a record its progress is read from. */
export type ProgressRow = Pick<GenerationEntity, 'stage' | 'status' | 'polls' | 'maxPolls' | 'error'> &
  Partial<Pick<GenerationEntity, 'provider'>>;

export function progressOf(row: ProgressRow): Progress {
  const stage =
    row.status === GenerationStatus.Completed
      ? GenerationStage.Complete
      : row.status === GenerationStatus.Failed
        ? GenerationStage.Failed
        : row.stage;
  return {
    stage,
    message: progressMessage(stage, row.polls, row.maxPolls, row.error, row.provider),
    poll: row.polls,
    max_polls: row.maxPolls,
  };
}

/** One progress message of a stage passed: what the user app shows in turn. */
export interface ProgressStep {
  stage: GenerationStage;
  message: string;
}

/**
 * Every progress message of the stages a generation has passed, in order, its current one last:
 * what the event stream would have sent from the start. A completed generation passed every running
 * stage up to Finalizing (Polling when a status check happened), then Complete; a failed one
 * answers its failure only. The polling fallback of the user app shows each in turn, so a stage
 * that came and went between two polls ("Saving your request...") is not skipped.
 */
export function progressStepsOf(row: ProgressRow): ProgressStep[] {
  const now = progressOf(row);
  const running =
    row.status === GenerationStatus.Completed
      ? [
          ...progressSteps(
            undefined,
            progressOf({ ...row, status: GenerationStatus.Processing, stage: GenerationStage.Finalizing }),
            row.provider,
          ),
          now,
        ]
      : progressSteps(undefined, now, row.provider);
  return running.map(({ stage, message }) => ({ stage, message }));
}

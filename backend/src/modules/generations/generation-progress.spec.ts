import {
  GENERATION_MESSAGES,
  progressMessage,
  progressOf,
  PROGRESS_MESSAGES,
  progressSteps,
  progressStepsOf,
  type Progress,
} from './generation-progress';
import { GenerationStage, GenerationStatus } from './generation.entity';

describe('progress messages (docs/product.md)', () => {
  it("uses the product's wording for each stage", () => {
    expect(
      (
        [
          GenerationStage.Creating,
          GenerationStage.Starting,
          GenerationStage.Processing,
          GenerationStage.Finalizing,
          GenerationStage.Complete,
        ] as const
      ).map((s) => PROGRESS_MESSAGES[s]),
    ).toEqual([
      'Saving your request...',
      'Sending it to the studio...',
      'Creating your look (this may take 10-30 seconds)...',
      'Finishing touches...',
      'Complete!',
    ]);
    expect(progressMessage(GenerationStage.Polling, 7, 60)).toBe('Still working (7 of 60)...');
  });

  it('says "Making your preview..." for the local preview renderer, which sends nothing to a studio', () => {
    expect(progressMessage(GenerationStage.Starting, 0, 23, null, 'preview')).toBe('Making your preview...');
    expect(progressMessage(GenerationStage.Starting, 0, 23, null, 'fal')).toBe('Sending it to the studio...');
    const preview = {
      stage: GenerationStage.Polling,
      status: GenerationStatus.Processing,
      polls: 2,
      maxPolls: 23,
      error: null,
      provider: 'preview',
    };
    expect(progressStepsOf(preview).map((s) => s.message)).toEqual([
      'Saving your request...',
      'Making your preview...',
      'Creating your look (this may take 10-30 seconds)...',
      'Still working (2 of 23)...',
    ]);
    expect(
      progressSteps(undefined, progressOf({ ...preview, stage: GenerationStage.Processing }), 'preview').map((s) => s.message),
    ).toEqual(['Saving your request...', 'Making your preview...', 'Creating your look (this may take 10-30 seconds)...']);
  });

  it('reports a finished record by its status, whatever stage it was left in', () => {
    const base = { stage: GenerationStage.Polling, polls: 4, maxPolls: 60, error: null };
    expect(progressOf({ ...base, status: GenerationStatus.Completed })).toEqual({
      stage: 'complete',
      message: 'Complete!',
      poll: 4,
      max_polls: 60,
    });
    expect(progressOf({ ...base, status: GenerationStatus.Failed, error: 'Cancelled' })).toMatchObject({
      stage: 'failed',
      message: 'Cancelled',
    });
    expect(progressOf({ ...base, status: GenerationStatus.Failed })).toMatchObject({ message: GENERATION_MESSAGES.failed });
    expect(progressOf({ ...base, status: GenerationStatus.Processing })).toMatchObject({
      stage: 'polling',
      message: 'Still working (4 of 60)...',
    });
  });

  it('words the timeout as the catalogue does', () => {
    expect(GENERATION_MESSAGES.timeout).toBe('Operation timed out: generation. Please try again.');
  });

  describe('the stages reported on the way to a new one (progressSteps)', () => {
    const at = (stage: GenerationStage, poll = 0): Progress => ({ stage, message: progressMessage(stage, poll, 60), poll, max_polls: 60 });
    const messages = (steps: Progress[]) => steps.map((s) => s.message);

    it('from nothing: every stage before it, in order, then it', () => {
      expect(messages(progressSteps(undefined, at(GenerationStage.Finalizing, 4)))).toEqual([
        'Saving your request...',
        'Sending it to the studio...',
        'Creating your look (this may take 10-30 seconds)...',
        'Still working (4 of 60)...',
        'Finishing touches...',
      ]);
      expect(messages(progressSteps(undefined, at(GenerationStage.Creating)))).toEqual(['Saving your request...']);
    });

    it('from a stage: only those after it; a later check of the same stage is just itself', () => {
      expect(messages(progressSteps(at(GenerationStage.Starting), at(GenerationStage.Polling, 1)))).toEqual([
        'Creating your look (this may take 10-30 seconds)...',
        'Still working (1 of 60)...',
      ]);
      expect(messages(progressSteps(at(GenerationStage.Polling, 1), at(GenerationStage.Polling, 5)))).toEqual([
        'Still working (5 of 60)...',
      ]);
    });

    it('invents no status check that did not happen (a webhook before any check), and fills nothing before a final state', () => {
      expect(messages(progressSteps(at(GenerationStage.Processing), at(GenerationStage.Finalizing, 0)))).toEqual(['Finishing touches...']);
      const failed: Progress = { stage: GenerationStage.Failed, message: 'Cancelled', poll: 0, max_polls: 60 };
      expect(progressSteps(undefined, failed)).toEqual([failed]);
    });
  });

  describe('the stages a record has passed, for a client that polls (progressStepsOf)', () => {
    const row = (status: GenerationStatus, stage: GenerationStage, polls = 0) => ({
      status,
      stage,
      polls,
      maxPolls: 60,
      error: null as string | null,
    });
    const texts = (r: ReturnType<typeof row>) => progressStepsOf(r).map((s) => s.message);

    it('a record just started has passed "Saving your request..." already', () => {
      expect(texts(row(GenerationStatus.Processing, GenerationStage.Starting))).toEqual([
        'Saving your request...',
        'Sending it to the studio...',
      ]);
    });

    it('a completed record: every running stage (the last status check), then "Complete!"; a failed one its failure only', () => {
      expect(texts(row(GenerationStatus.Completed, GenerationStage.Finalizing, 3))).toEqual([
        'Saving your request...',
        'Sending it to the studio...',
        'Creating your look (this may take 10-30 seconds)...',
        'Still working (3 of 60)...',
        'Finishing touches...',
        'Complete!',
      ]);
      expect(texts({ ...row(GenerationStatus.Failed, GenerationStage.Processing), error: 'Cancelled' })).toEqual(['Cancelled']);
    });
  });
});

import { GENERATION_MESSAGES, progressMessage, progressOf, PROGRESS_MESSAGES } from './generation-progress';
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
      'Creating generation record...',
      'Starting AI generation...',
      'Processing (this may take 10-30 seconds)...',
      'Finalizing...',
      'Complete!',
    ]);
    expect(progressMessage(GenerationStage.Polling, 7, 60)).toBe('Checking status (7/60)...');
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
      message: 'Checking status (4/60)...',
    });
  });

  it('words the timeout as the catalogue does', () => {
    expect(GENERATION_MESSAGES.timeout).toBe('Operation timed out: generation. Please try again.');
  });
});

import { newTestService } from '../../../test/helpers/new-test-service';
import { UsersRepository } from '../users/users.repository';
import { CustomPoseNotUnderstoodError, CustomPoseRefusedError } from './safety';
import { SafetyRefusalsRepository } from './safety-refusals.repository';
import { CUSTOM_POSE_PAUSE_HOURS, CustomPosePausedError, SafetyRefusalsService } from './safety-refusals.service';
import type { EntityManager } from 'typeorm';

/** The gate with no pause, transactions run on a fake manager, and `refusalsLastHour` refusals found after an insert. */
function setup(refusalsLastHour = 1) {
  const built = newTestService(SafetyRefusalsService);
  const repo = built.mock(SafetyRefusalsRepository);
  repo.transaction.mockImplementation((work) => work({} as EntityManager));
  repo.countLastHour.mockResolvedValue(refusalsLastHour);
  built.mock(UsersRepository).customPosePausedUntil.mockResolvedValue(null);
  built.mock(UsersRepository).pauseCustomPoses.mockResolvedValue(true);
  return { ...built, repo };
}

const USER = { id: 'u1' };

describe('the custom pose gate', () => {
  it('lets an understood, safe text through and records nothing', async () => {
    const { sut, repo } = setup();
    await expect(sut.screen(USER, 'walking on the beach at sunset, shot on 35mm film', 'check')).resolves.toBeUndefined();
    expect(repo.insert).not.toHaveBeenCalled();
  });

  it('records a refusal with every category and answers VALIDATION_ERROR', async () => {
    const { sut, repo } = setup();
    await expect(sut.screen(USER, 'topless with zorblatt', 'start')).rejects.toBeInstanceOf(CustomPoseRefusedError);
    expect(repo.insert).toHaveBeenCalledWith(
      { userId: 'u1', reasons: 'nudity,unknown_word', text: 'topless with zorblatt', source: 'start' },
      expect.anything(),
    );
  });

  it.each(['caminando en la playa', 'walking on the beahc', 'standing with 7', 'walking "on" the beach'])(
    'answers CUSTOM_POSE_NOT_UNDERSTOOD for %j and records nothing (it cannot pause anyone)',
    async (text) => {
      const { sut, repo, mock } = setup(99);
      await expect(sut.screen(USER, text, 'check')).rejects.toBeInstanceOf(CustomPoseNotUnderstoodError);
      expect(repo.insert).not.toHaveBeenCalled();
      expect(repo.countLastHour).not.toHaveBeenCalled();
      expect(mock(UsersRepository).pauseCustomPoses).not.toHaveBeenCalled();
    },
  );

  it('an empty text is refused without a record', async () => {
    const { sut, repo } = setup();
    await expect(sut.screen(USER, '   ', 'check')).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(repo.insert).not.toHaveBeenCalled();
  });

  it('the sixth refusal within an hour pauses custom poses for 24 hours', async () => {
    const { sut, mock } = setup(6);
    await expect(sut.screen(USER, 'nude selfie', 'check')).rejects.toBeInstanceOf(CustomPoseRefusedError);
    const [, until] = mock(UsersRepository).pauseCustomPoses.mock.calls[0];
    expect((until as Date).getTime() - Date.now()).toBeGreaterThan(CUSTOM_POSE_PAUSE_HOURS * 3600_000 - 60_000);
  });

  it('while paused, answers 429 with the seconds until the pause ends (Retry-After), whatever the text', async () => {
    const { sut, mock, repo } = setup();
    const until = new Date(Date.now() + 2 * 3600_000);
    mock(UsersRepository).customPosePausedUntil.mockResolvedValue(until);
    const error = await sut.screen(USER, 'walking on the beach', 'check').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CustomPosePausedError);
    expect(error).toMatchObject({ statusCode: 429, code: 'CUSTOM_POSE_PAUSED' });
    expect((error as CustomPosePausedError).retryAfterSeconds).toBeGreaterThan(2 * 3600 - 60);
    expect((error as CustomPosePausedError).retryAfterSeconds).toBeLessThanOrEqual(2 * 3600);
    expect(repo.insert).not.toHaveBeenCalled();
  });

  it('a pause that ends in under a second still says to wait one second', () => {
    const now = new Date('2026-11-30T12:00:00Z');
    expect(new CustomPosePausedError(new Date(now.getTime() + 200), now).retryAfterSeconds).toBe(1);
    expect(new CustomPosePausedError(new Date(now.getTime() + 90_500), now).retryAfterSeconds).toBe(91);
  });
});

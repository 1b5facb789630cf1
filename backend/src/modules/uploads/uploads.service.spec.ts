import { newTestService } from '../../../test/helpers/new-test-service';
import { UploadsRepository } from './uploads.repository';
import { UploadsService } from './uploads.service';

const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000);

describe('UploadsService.touch (photos are kept 30 days after their last use)', () => {
  it('marks the photos last used over an hour ago, and leaves a photo used minutes ago as it is', async () => {
    const { sut, mock } = newTestService(UploadsService);
    await sut.touch([
      { id: 'a', lastUsedAt: minutesAgo(61) },
      { id: 'b', lastUsedAt: minutesAgo(10) },
      { id: 'c', lastUsedAt: minutesAgo(60 * 24 * 20) },
    ]);
    expect(mock(UploadsRepository).touch).toHaveBeenCalledTimes(1);
    expect(mock(UploadsRepository).touch).toHaveBeenCalledWith(['a', 'c']);
  });

  it('writes nothing when every photo was used within the hour (a person generating again)', async () => {
    const { sut, mock } = newTestService(UploadsService);
    await sut.touch([
      { id: 'a', lastUsedAt: minutesAgo(1) },
      { id: 'b', lastUsedAt: minutesAgo(59) },
    ]);
    expect(mock(UploadsRepository).touch).not.toHaveBeenCalled();
  });
});

import { newTestService } from '../../../test/helpers/new-test-service';
import { APP_CONFIG } from '../../config/config.module';
import { testConfig } from '../../config/test-config';
import { ActivityService } from './activity.service';
import { GenerationActivityListener } from './generation-activity.listener';

const completed = {
  generationId: 'g1',
  userId: 'u1',
  type: 'image' as const,
  category: 'bikini',
  charged: 2,
  provider: 'preview',
  durationMs: 2100,
};

function setup(analytics: boolean) {
  return newTestService(GenerationActivityListener, { provide: APP_CONFIG, useValue: testConfig({ features: { analytics } }) });
}

describe('GenerationActivityListener', () => {
  it("records a finished generation as the person's activity and, with it, the analytics event", async () => {
    const { sut, mock } = setup(true);
    await sut.onCompleted(completed);
    expect(mock(ActivityService).record).toHaveBeenCalledTimes(1);
    expect(mock(ActivityService).record).toHaveBeenCalledWith(
      'u1',
      'generation_completed',
      { generation_id: 'g1', type: 'image', category: 'bikini', cost: 2 },
      {
        name: 'generation_completed',
        properties: { generation_id: 'g1', type: 'image', category: 'bikini', cost: 2, provider: 'preview', duration_ms: 2100 },
      },
    );
  });

  it('records the activity without an analytics event when analytics is turned off (FEATURE_ANALYTICS=false)', async () => {
    const { sut, mock } = setup(false);
    await sut.onFailed({ generationId: 'g1', userId: 'u1', type: 'image', reason: 'Generation failed', refused: false, cancelled: false });
    expect(mock(ActivityService).record).toHaveBeenCalledWith(
      'u1',
      'generation_failed',
      { generation_id: 'g1', reason: 'Generation failed', refused: false },
      undefined,
    );
  });
});

import { JobName } from '../queue.constants';
import { InProcessQueueDriver } from './in-process.driver';

describe('InProcessQueueDriver.countsByQueue', () => {
  it('counts jobs per queue by state: waiting before consuming, then completed and failed', async () => {
    const driver = new InProcessQueueDriver({ concurrency: 1, shutdownTimeoutMs: 1000 });
    const byName = async () => Object.fromEntries((await driver.countsByQueue()).map((q) => [q.name, q.counts]));
    await driver.add(JobName.GenerationSweep, {});
    await driver.add(JobName.GenerationSweep, {}, { attempts: 1 });
    await driver.add(JobName.GenerationSubmit, { generationId: 'g' } as never, { delayMs: 60_000 });
    expect(await byName()).toEqual({
      maintenance: { waiting: 2, active: 0, delayed: 0, failed: 0, completed: 0 },
      generations: { waiting: 0, active: 0, delayed: 1, failed: 0, completed: 0 },
    });
    let n = 0;
    await driver.startConsuming(async () => {
      if (++n === 2) throw new Error('boom');
    });
    await new Promise((r) => setTimeout(r, 50));
    expect((await byName()).maintenance).toEqual({ waiting: 0, active: 0, delayed: 0, failed: 1, completed: 1 });
    await driver.close();
  });
});

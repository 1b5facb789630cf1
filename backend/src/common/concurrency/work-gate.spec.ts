import { ServiceUnavailableError } from '../errors';
import { WorkGate } from './work-gate';

describe('WorkGate', () => {
  const deferred = () => {
    let resolve!: () => void;
    const promise = new Promise<void>((r) => (resolve = r));
    return { promise, resolve };
  };

  it('runs at most `concurrency` at once, queues up to `maxWaiting`, and refuses beyond with 503 and Retry-After', async () => {
    const gate = new WorkGate(2, 1);
    const blockers = [deferred(), deferred(), deferred()];
    let active = 0;
    let peak = 0;
    const job = (d: { promise: Promise<void> }) =>
      gate.run(async () => {
        active++;
        peak = Math.max(peak, active);
        await d.promise;
        active--;
        return 'done';
      });
    const runs = blockers.map(job);
    await new Promise((r) => setImmediate(r));
    expect(gate.load).toEqual({ running: 2, waiting: 1 });
    await expect(gate.run(async () => 'x')).rejects.toMatchObject({ statusCode: 503, retryAfterSeconds: 2 });
    await expect(gate.run(async () => 'x')).rejects.toBeInstanceOf(ServiceUnavailableError);
    blockers.forEach((b) => b.resolve());
    expect(await Promise.all(runs)).toEqual(['done', 'done', 'done']);
    expect(peak).toBe(2);
    expect(gate.load).toEqual({ running: 0, waiting: 0 });
  });

  it('frees its slot when the work throws', async () => {
    const gate = new WorkGate(1, 0);
    await expect(gate.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await gate.run(async () => 'next')).toBe('next');
  });
});

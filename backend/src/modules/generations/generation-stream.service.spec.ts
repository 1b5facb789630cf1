import { EventEmitter } from 'node:events';
import { GenerationStreamService, SSE_HEARTBEAT_MS } from './generation-stream.service';
import { GenerationStage, GenerationStatus, type GenerationEntity } from './generation.entity';
import type { GenerationEventListener, GenerationEventsService } from './generation-events.service';
import type { GenerationsRepository } from './generations.repository';
import type { GenerationsService } from './generations.service';
import type { Response } from 'express';

class FakeResponse extends EventEmitter {
  chunks: string[] = [];
  headers: Record<string, string> = {};
  statusCode = 0;
  writableEnded = false;
  status(code: number) {
    this.statusCode = code;
    return this;
  }
  setHeader(k: string, v: string) {
    this.headers[k.toLowerCase()] = v;
  }
  flushHeaders() {}
  write(chunk: string) {
    this.chunks.push(chunk);
    return true;
  }
  end() {
    this.writableEnded = true;
    this.emit('close');
  }
  get text() {
    return this.chunks.join('');
  }
}

const flush = async () => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
};

describe('GenerationStreamService', () => {
  let current: Partial<GenerationEntity>;
  let listener: GenerationEventListener | undefined;
  let unsubscribed = false;
  const base = { id: 'g1', status: GenerationStatus.Processing, stage: GenerationStage.Processing, polls: 0, maxPolls: 60, error: null };

  function setup() {
    current = { ...base };
    unsubscribed = false;
    const generations = {
      findOwn: jest.fn().mockResolvedValue(current),
      toDto: jest.fn(async (r: GenerationEntity) => ({ id: r.id, status: r.status })),
    };
    const repo = { findById: jest.fn(async () => current) };
    const events = {
      subscribe: jest.fn(async (_id: string, l: GenerationEventListener) => {
        listener = l;
        return async () => {
          unsubscribed = true;
        };
      }),
    };
    const service = new GenerationStreamService(
      generations as unknown as GenerationsService,
      repo as unknown as GenerationsRepository,
      events as unknown as GenerationEventsService,
    );
    return service;
  }

  afterEach(() => jest.useRealTimers());

  it('sends the current state, progress in order (never backwards), then the final state read from the database, and closes', async () => {
    const service = setup();
    const res = new FakeResponse();
    await service.open('u1', 'g1', res as unknown as Response);
    await flush();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    listener!({ type: 'progress', stage: GenerationStage.Polling, message: 'Checking status (1/60)...', poll: 1, max_polls: 60 });
    listener!({ type: 'progress', stage: GenerationStage.Processing, message: 'late', poll: 0, max_polls: 60 }); // older: dropped
    listener!({ type: 'progress', stage: GenerationStage.Polling, message: 'Checking status (2/60)...', poll: 2, max_polls: 60 });
    current = { ...base, status: GenerationStatus.Completed, stage: GenerationStage.Complete };
    listener!({ type: 'completed' });
    await flush();
    const events = res.text
      .split('\n\n')
      .filter((b) => b.startsWith('event:'))
      .map((b) => b.split('\n')[0].slice(7));
    expect(events).toEqual(['progress', 'progress', 'progress', 'completed']);
    expect(res.text).not.toContain('late');
    expect(res.text).toContain('"generation":{"id":"g1","status":"completed"}');
    expect(res.writableEnded).toBe(true);
    expect(unsubscribed).toBe(true);
  });

  it('writes a heartbeat comment every 15 s, and then notices a final state whose event was lost', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    const service = setup();
    const res = new FakeResponse();
    await service.open('u1', 'g1', res as unknown as Response);
    await flush();
    expect(SSE_HEARTBEAT_MS).toBe(15_000);
    jest.advanceTimersByTime(15_000);
    await flush();
    expect(res.text).toContain(': heartbeat\n\n');
    expect(res.writableEnded).toBe(false);
    current = { ...base, status: GenerationStatus.Failed, stage: GenerationStage.Failed, error: 'Cancelled' };
    jest.advanceTimersByTime(15_000);
    await flush();
    expect(res.text).toContain('event: failed\ndata: {"reason":"Cancelled"}');
    expect(res.writableEnded).toBe(true);
  });

  it('stops listening when the browser goes away', async () => {
    const service = setup();
    const res = new FakeResponse();
    await service.open('u1', 'g1', res as unknown as Response);
    res.emit('close');
    await flush();
    expect(unsubscribed).toBe(true);
  });
});

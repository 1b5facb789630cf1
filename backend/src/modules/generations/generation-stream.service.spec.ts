import { EventEmitter } from 'node:events';
import { NotFoundError } from '../../common/errors';
import { GenerationStreamService, SSE_HEARTBEAT_MS } from './generation-stream.service';
import { GenerationStage, GenerationStatus, type GenerationEntity } from './generation.entity';
import type { GenerationEventListener, GenerationEventsService } from './generation-events.service';
import type { GenerationPresenter } from './generation-presenter';
import type { GenerationsRepository } from './generations.repository';
import type { GenerationsService } from './generations.service';
import type { Response } from 'express';

/** Every stream a test opened: the browser leaves each one after the test (its heartbeat stops). */
const opened = new Set<FakeResponse>();

class FakeResponse extends EventEmitter {
  constructor() {
    super();
    opened.add(this);
  }
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

/** The stages every generation passes before its first status check, as the stream sends them. */
const UP_TO_PROCESSING = [
  'progress:Saving your request...',
  'progress:Sending it to the studio...',
  'progress:Creating your look (this may take 10-30 seconds)...',
];

/** The events of a stream, in order: `progress:<message>`, or the event's name. */
const eventsOf = (res: FakeResponse) =>
  res.text
    .split('\n\n')
    .filter((b) => b.startsWith('event:'))
    .map((b) => {
      const [head, data] = b.split('\n');
      const name = head.slice(7);
      return name === 'progress' ? `progress:${(JSON.parse(data.slice(6)) as { message: string }).message}` : name;
    });

const flush = async () => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
};

describe('GenerationStreamService', () => {
  let current: Partial<GenerationEntity>;
  let listener: GenerationEventListener | undefined;
  let unsubscribed = false;
  let findOwn: jest.Mock;
  const base = { id: 'g1', status: GenerationStatus.Processing, stage: GenerationStage.Processing, polls: 0, maxPolls: 60, error: null };

  function setup() {
    current = { ...base };
    unsubscribed = false;
    const generations = { findOwn: jest.fn(async () => current) };
    findOwn = generations.findOwn;
    const presenter = { toDto: jest.fn(async (r: GenerationEntity) => ({ id: r.id, status: r.status })) };
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
      presenter as unknown as GenerationPresenter,
      repo as unknown as GenerationsRepository,
      events as unknown as GenerationEventsService,
    );
    return service;
  }

  afterEach(() => {
    jest.useRealTimers();
    for (const res of opened) if (!res.writableEnded) res.emit('close');
    opened.clear();
  });

  it('sends the stages passed, the current state, progress in order (never backwards), then the final state read from the database, and closes', async () => {
    const service = setup();
    const res = new FakeResponse();
    await service.open('u1', 'g1', res as unknown as Response);
    await flush();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    listener!({ type: 'progress', stage: GenerationStage.Polling, message: 'Still working (1 of 60)...', poll: 1, max_polls: 60 });
    listener!({ type: 'progress', stage: GenerationStage.Processing, message: 'late', poll: 0, max_polls: 60 }); // older: dropped
    listener!({ type: 'progress', stage: GenerationStage.Polling, message: 'Still working (2 of 60)...', poll: 2, max_polls: 60 });
    current = { ...base, status: GenerationStatus.Completed, stage: GenerationStage.Complete };
    listener!({ type: 'completed' });
    await flush();
    expect(eventsOf(res)).toEqual([
      // where the generation stood when the browser came: every stage it had passed, in order
      ...UP_TO_PROCESSING,
      'progress:Still working (1 of 60)...',
      'progress:Still working (2 of 60)...',
      'progress:Finishing touches...', // it completed before its "Finishing touches..." event came: filled in
      'completed',
    ]);
    expect(res.text).not.toContain('late');
    expect(res.text).toContain('"generation":{"id":"g1","status":"completed"}');
    expect(res.writableEnded).toBe(true);
    expect(unsubscribed).toBe(true);
  });

  it('a browser that comes after the end sees every stage the generation passed, then completed; a failed one only its failure', async () => {
    const service = setup();
    const res = new FakeResponse();
    current = { ...base, status: GenerationStatus.Completed, stage: GenerationStage.Complete, polls: 3 };
    await service.open('u1', 'g1', res as unknown as Response);
    await flush();
    expect(eventsOf(res)).toEqual([
      ...UP_TO_PROCESSING,
      'progress:Still working (3 of 60)...',
      'progress:Finishing touches...',
      'completed',
    ]);

    const failed = new FakeResponse();
    current = { ...base, status: GenerationStatus.Failed, stage: GenerationStage.Failed, error: 'Cancelled' };
    await service.open('u1', 'g1', failed as unknown as Response);
    await flush();
    expect(eventsOf(failed)).toEqual(['failed']);
  });

  it('fills in a stage that came and went between two events, and nothing twice', async () => {
    const service = setup();
    const res = new FakeResponse();
    current = { ...base, stage: GenerationStage.Creating };
    await service.open('u1', 'g1', res as unknown as Response);
    await flush();
    listener!({
      type: 'progress',
      stage: GenerationStage.Processing,
      message: 'Creating your look (this may take 10-30 seconds)...',
      poll: 0,
      max_polls: 60,
    });
    listener!({
      type: 'progress',
      stage: GenerationStage.Processing,
      message: 'Creating your look (this may take 10-30 seconds)...',
      poll: 0,
      max_polls: 60,
    });
    await flush();
    expect(eventsOf(res)).toEqual([...UP_TO_PROCESSING]);
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

  it('misses no event that comes while the owner check reads the row: it follows the state read', async () => {
    const service = setup();
    const res = new FakeResponse();
    findOwn.mockImplementationOnce(async () => {
      const read = { ...current }; // read as Processing; then the worker moves on before the answer arrives
      listener!({ type: 'progress', stage: GenerationStage.Polling, message: 'Still working (1 of 60)...', poll: 1, max_polls: 60 });
      return read;
    });
    await service.open('u1', 'g1', res as unknown as Response);
    await flush();
    expect(eventsOf(res)).toEqual([...UP_TO_PROCESSING, 'progress:Still working (1 of 60)...']);
  });

  it("answers another person's generation (or none) before any stream opens, and keeps no subscription", async () => {
    const service = setup();
    const res = new FakeResponse();
    findOwn.mockRejectedValueOnce(new NotFoundError());
    await expect(service.open('u1', 'g1', res as unknown as Response)).rejects.toBeInstanceOf(NotFoundError);
    expect(res.headers['content-type']).toBeUndefined();
    expect(res.text).toBe('');
    expect(unsubscribed).toBe(true);
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

import { client } from '@fitting-room/api-client';
import { PROGRESS_WORDING } from '@fitting-room/shared';
import { NETWORK_ERROR_MESSAGE } from '@fitting-room/shared/browser';
import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toaster } from '../../components/toaster';
import { apiError, FakeApi, type Reply } from '../../testing/fake-api';
import { FakeEventSource } from '../../testing/fake-event-source';
import {
  CLIENT_STAGES,
  GENERATE_MESSAGES,
  type GenerationRequest,
  GenerationRunner,
  MIN_STAGE_MS,
  type Refusal,
  type RunnerState,
} from './generation-runner';
import type { Generation } from '../generations/generation-api';

/** The API's progress messages, as the server words them (the shared package's words, which the API reads too). */
const CREATING = PROGRESS_WORDING.creating;
const STARTING = PROGRESS_WORDING.starting;
const PROCESSING = PROGRESS_WORDING.processing;
const FINALIZING = PROGRESS_WORDING.finalizing;
const checking = (n: number) => PROGRESS_WORDING.polling(n, 60);

/** A progress answer as the server builds it: the message of every stage passed (`steps`), the current one last. */
function progressAt(stage: Generation['progress']['stage'], poll = 0): Generation['progress'] {
  const running: Generation['progress']['steps'] = [
    { stage: 'creating', message: CREATING },
    { stage: 'starting', message: STARTING },
    { stage: 'processing', message: PROCESSING },
    ...(poll > 0 ? [{ stage: 'polling' as const, message: checking(poll) }] : []),
    { stage: 'finalizing', message: FINALIZING },
  ];
  const steps =
    stage === 'complete'
      ? [...running, { stage: 'complete' as const, message: CLIENT_STAGES.complete }]
      : running.slice(0, running.findIndex((step) => step.stage === stage) + 1);
  return { stage, message: steps.at(-1)!.message, poll, max_polls: 60, steps };
}

const GEN_ID = 'gen-1';
const GEN_ROUTE = `GET /api/generations/${GEN_ID}`;
const CANCEL_ROUTE = `POST /api/generations/${GEN_ID}/cancel`;

function generation(overrides: Partial<Generation> = {}): Generation {
  return {
    id: GEN_ID,
    user_id: 'user-1',
    status: 'processing',
    type: 'image',
    category: 'active_wear',
    cost: 1,
    error: null,
    url: null,
    prompt: '',
    progress: progressAt('starting'),
    metadata: { outfit_id: 'outfit-1', scene_id: 'beach_walk', upload_ids: ['up-1'] } as Generation['metadata'],
    template_name: 'Outfit One',
    scene_name: 'Beach Walk',
    source_photo_url: null,
    created_at: '2026-11-26T10:00:00.000Z',
    updated_at: '2026-11-26T10:00:00.000Z',
    completed_at: null,
    ...overrides,
  };
}

const ok = (body: unknown): Reply => ({ status: 200, body });
const checkOk = ok({ cost: 1, credits: 10, credits_after: 9 });

/** Lets every pending promise and request of the runner settle (real macrotasks: the fake timers do not touch setImmediate). */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i += 1) await new Promise((resolve) => setImmediate(resolve));
}

/** Moves the fake clock on, then lets what the timers started settle. */
async function advance(ms: number): Promise<void> {
  await vi.advanceTimersByTimeAsync(ms);
  await settle();
}

let api: FakeApi;
let runner: GenerationRunner;
let queryClient: QueryClient;
let token: string | null;
/** Every state the runner published, in order, with the (fake) time it was published. */
let states: RunnerState[];
let times: number[];
/** Every toast shown, in order. */
let toasts: { type: string; title: string; description?: string }[];
let refusals: Refusal[];
let uploaded: Map<File, string>[];
let stopToasts: () => void;
/** The ids of the toasts taken away. */
let dismissed: string[];

/** The texts a person saw, in order (a state that changed something else, such as the id, repeats none). */
const stages = () =>
  states.flatMap((s) => (s.phase === 'idle' ? ['(idle)'] : [s.stage])).filter((stage, i, all) => i === 0 || all[i - 1] !== stage);
/** Each text shown and for how long (ms) until the next; the last one has no end. */
function shownFor(): { stage: string; ms: number | null }[] {
  const shown: { stage: string; at: number }[] = [];
  states.forEach((s, i) => {
    const stage = s.phase === 'idle' ? '(idle)' : s.stage;
    if (shown.at(-1)?.stage !== stage) shown.push({ stage, at: times[i]! });
  });
  return shown.map(({ stage, at }, i) => ({ stage, ms: i + 1 < shown.length ? shown[i + 1]!.at - at : null }));
}
/** Long enough for every waiting message to have had its turn (the stream tests: nothing polls). */
const showAll = () => advance(MIN_STAGE_MS * 12);
const photo = (name: string, uploadId?: string) => ({ file: new File(['jpeg'], name, { type: 'image/jpeg' }), uploadId });

function request(overrides: Partial<GenerationRequest> = {}): GenerationRequest {
  return {
    photos: [photo('me.jpg')],
    type: 'image',
    category: 'active_wear',
    templateId: 'outfit-1',
    pose: { sceneId: 'beach_walk' },
    onUploaded: (ids) => uploaded.push(ids),
    onRefused: (refusal) => refusals.push(refusal),
    ...overrides,
  };
}

/** The happy path's answers up to the start; a test changes the ones it is about. */
function answerStart(): void {
  api
    .on('POST /api/generations/check', checkOk)
    .on('POST /api/uploads', ok({ uploads: [{ id: 'up-1' }] }))
    .on('POST /api/generations', ok(generation()))
    .on(GEN_ROUTE, ok(generation()));
}

async function start(overrides: Partial<GenerationRequest> = {}): Promise<void> {
  void runner.start(request(overrides), { queryClient, getAccessToken: () => token }, 'user-1');
  await settle();
}

/** Seeds the queries the runner refreshes, so a test can see whether they were invalidated. */
function seedQueries(): void {
  queryClient.setQueryData(['me'], { credits: 10 });
  queryClient.setQueryData(['generations', { category: null }], { pages: [] });
  queryClient.setQueryData(['uploads', 'usage'], { photos_this_hour: 0 });
}
const invalidated = (key: readonly unknown[]) => queryClient.getQueryState(key)?.isInvalidated ?? false;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  api = new FakeApi();
  answerStart();
  vi.stubGlobal('fetch', api.fetch);
  vi.stubGlobal('EventSource', FakeEventSource);
  FakeEventSource.reset();
  client.setConfig({ baseUrl: 'http://app.test' });
  queryClient = new QueryClient();
  seedQueries();
  token = 'access-token-1';
  runner = new GenerationRunner();
  states = [];
  times = [];
  runner.subscribe(() => {
    states.push(runner.getSnapshot());
    times.push(Date.now());
  });
  toasts = [];
  dismissed = [];
  stopToasts = toaster.subscribe(
    (toast: { id?: string; type?: string; title?: string; description?: string; dismiss?: boolean; message?: string }) => {
      if ((toast.dismiss || toast.message === 'DISMISS') && toast.id) dismissed.push(toast.id); // taken away at once, or after its exit animation
      if (toast.dismiss || toast.message || !toast.title) return;
      toasts.push({ type: toast.type ?? '', title: toast.title, ...(toast.description ? { description: toast.description } : {}) });
    },
  );
  refusals = [];
  uploaded = [];
});

afterEach(() => {
  runner.reset();
  stopToasts();
  toaster.remove();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('starting a generation', () => {
  it('shows the client stages in turn, knows the id at once (for Cancel), and says it started', async () => {
    await start();
    // the check, the upload and the start were answered at once; "Uploading image..." waits its turn
    expect(runner.getSnapshot()).toEqual({
      phase: 'running',
      stage: CLIENT_STAGES.preparing,
      category: 'active_wear',
      type: 'image',
      generationId: GEN_ID,
    });
    expect(toasts).toEqual([{ type: 'success', title: GENERATE_MESSAGES.started }]);
    await advance(MIN_STAGE_MS);
    expect(stages()).toEqual([CLIENT_STAGES.preparing, CLIENT_STAGES.uploading]);
  });

  it('checks the choice first, then uploads, then starts: one request each, in that order', async () => {
    await start();
    expect(api.routes).toEqual(['POST /api/generations/check', 'POST /api/uploads', 'POST /api/generations']);
    expect(api.last('POST /api/generations/check')?.json).toEqual({
      type: 'image',
      category: 'active_wear',
      template_id: 'outfit-1',
      scene_id: 'beach_walk',
    });
  });

  it('sends a custom pose instead of a scene', async () => {
    await start({ pose: { customPose: 'arms crossed' }, type: 'video' });
    const body = api.last('POST /api/generations')?.json;
    expect(body).toMatchObject({ type: 'video', custom_pose: 'arms crossed' });
    expect(body).not.toHaveProperty('scene_id');
  });

  it('uploads only the photos not uploaded yet, and starts with every photo in the order chosen', async () => {
    const fresh = photo('new.jpg');
    api.on('POST /api/uploads', ok({ uploads: [{ id: 'up-new' }] }));
    await start({ photos: [photo('old.jpg', 'up-old'), fresh] });
    const form = await api.last('POST /api/uploads')!.request.formData();
    expect(form.getAll('files').map((f) => (f as File).name)).toEqual(['new.jpg']);
    expect(api.last('POST /api/generations')?.json).toMatchObject({ upload_ids: ['up-old', 'up-new'] });
    expect(uploaded).toEqual([new Map([[fresh.file, 'up-new']])]);
    expect(invalidated(['uploads', 'usage'])).toBe(true);
  });

  it('skips the upload (and its stage) when every photo was uploaded before', async () => {
    await start({ photos: [photo('a.jpg', 'up-a'), photo('b.jpg', 'up-b')] });
    expect(api.count('POST /api/uploads')).toBe(0);
    expect(stages()).not.toContain(CLIENT_STAGES.uploading);
    expect(api.last('POST /api/generations')?.json).toMatchObject({ upload_ids: ['up-a', 'up-b'] });
  });

  it('ignores a second start while one runs: no second check, upload or start', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await start();
    await start({ category: 'swimwear' });
    expect(api.count('POST /api/generations/check')).toBe(1);
    expect(api.count('POST /api/generations')).toBe(1);
    expect(runner.getSnapshot()).toMatchObject({ category: 'active_wear' });
    expect(warn).toHaveBeenCalledOnce();
  });

  it('shows the check refusal in place (no toast), uploads nothing and goes back to idle', async () => {
    api.on('POST /api/generations/check', apiError(402, 'INSUFFICIENT_CREDITS', 'Not enough credits'));
    await start();
    expect(refusals).toEqual([{ step: 'check', message: 'Not enough credits' }]);
    expect(api.routes).toEqual(['POST /api/generations/check']);
    expect(runner.getSnapshot()).toEqual({ phase: 'idle' });
    expect(toasts).toEqual([]);
    expect(invalidated(['uploads', 'usage'])).toBe(false);
  });

  it('shows an upload refusal in place, starts nothing and refreshes the upload usage', async () => {
    api.on('POST /api/uploads', apiError(429, 'UPLOAD_QUOTA', 'Upload limit reached for this hour'));
    await start();
    expect(refusals).toEqual([{ step: 'upload', message: 'Upload limit reached for this hour' }]);
    expect(api.count('POST /api/generations')).toBe(0);
    expect(runner.getSnapshot()).toEqual({ phase: 'idle' });
    expect(invalidated(['uploads', 'usage'])).toBe(true);
    expect(toasts).toEqual([]);
  });

  it('a face refusal at the start (the live selfie needed) is shown at the photos with its code, not as a failure', async () => {
    api.on('POST /api/generations', apiError(403, 'FACE_SELFIE_REQUIRED', 'Please take a live selfie'));
    await start();
    expect(refusals).toEqual([{ step: 'upload', message: 'Please take a live selfie', code: 'FACE_SELFIE_REQUIRED' }]);
    expect(runner.getSnapshot()).toEqual({ phase: 'idle' });
    expect(toasts).toEqual([]);
  });

  it('a refused start is a failure toast with the API message, and the credits are read again', async () => {
    api.on('POST /api/generations', apiError(409, 'GENERATION_RUNNING', 'A generation is already running'));
    await start();
    expect(toasts).toEqual([{ type: 'error', title: GENERATE_MESSAGES.failed, description: 'A generation is already running' }]);
    expect(refusals).toEqual([]);
    expect(runner.getSnapshot()).toEqual({ phase: 'idle' });
    expect(invalidated(['me'])).toBe(true);
  });

  it('a start that never reaches the server says so', async () => {
    api.on('POST /api/generations', 'network');
    await start();
    expect(toasts).toEqual([{ type: 'error', title: GENERATE_MESSAGES.failed, description: NETWORK_ERROR_MESSAGE }]);
  });
});

describe('following the live stream', () => {
  it('opens one stream for the generation, with the access token in its URL (EventSource sends no headers)', async () => {
    await start();
    const url = new URL(FakeEventSource.only().url);
    expect(url.pathname).toBe(`/api/generations/${GEN_ID}/events`);
    expect(url.searchParams.get('access_token')).toBe('access-token-1');
  });

  it('shows each progress message in the order the server sends them, then Complete!', async () => {
    await start();
    const stream = FakeEventSource.only();
    for (const [stage, message] of [
      ['creating', CREATING],
      ['starting', STARTING],
      ['processing', PROCESSING],
      ['polling', checking(1)],
      ['polling', checking(2)],
      ['finalizing', FINALIZING],
    ]) {
      await advance(MIN_STAGE_MS);
      stream.emit('progress', { stage, message });
    }
    stream.emit('completed', { generation: generation({ status: 'completed' }) });
    await showAll();
    expect(stages()).toEqual([
      CLIENT_STAGES.preparing,
      CLIENT_STAGES.uploading,
      CREATING,
      STARTING,
      PROCESSING,
      checking(1),
      checking(2),
      FINALIZING,
      CLIENT_STAGES.complete,
    ]);
  });

  it('shows every message for at least MIN_STAGE_MS, in order, however fast they come, and Complete! right after the last one had its time', async () => {
    await start();
    const stream = FakeEventSource.only();
    // a quick generation: every stage (as the stream sends a late browser) and the end, at once
    stream.emit('progress', { stage: 'creating', message: CREATING });
    stream.emit('progress', { stage: 'starting', message: STARTING });
    stream.emit('progress', { stage: 'processing', message: PROCESSING });
    stream.emit('progress', { stage: 'polling', message: checking(1) });
    stream.emit('progress', { stage: 'polling', message: checking(2) }); // the newer check takes the waiting one's place
    stream.emit('progress', { stage: 'finalizing', message: FINALIZING });
    stream.emit('completed', { generation: generation({ status: 'completed' }) });
    expect(stream.closed).toBe(true); // nothing more is needed from the server

    await advance(MIN_STAGE_MS * 7 - 1);
    expect(runner.getSnapshot()).toMatchObject({ phase: 'running', stage: FINALIZING });
    expect(invalidated(['generations', { category: null }])).toBe(false); // the result is not listed before "Complete!"
    await advance(1);
    expect(runner.getSnapshot()).toMatchObject({ phase: 'completed', stage: CLIENT_STAGES.complete });
    expect(invalidated(['generations', { category: null }])).toBe(true);
    expect(shownFor()).toEqual([
      { stage: CLIENT_STAGES.preparing, ms: MIN_STAGE_MS },
      { stage: CLIENT_STAGES.uploading, ms: MIN_STAGE_MS },
      { stage: CREATING, ms: MIN_STAGE_MS },
      { stage: STARTING, ms: MIN_STAGE_MS },
      { stage: PROCESSING, ms: MIN_STAGE_MS },
      { stage: checking(2), ms: MIN_STAGE_MS },
      { stage: FINALIZING, ms: MIN_STAGE_MS },
      { stage: CLIENT_STAGES.complete, ms: null },
    ]);
  });

  it('adds no wait to messages that come slower than MIN_STAGE_MS, and updates a status check in place', async () => {
    await start();
    const stream = FakeEventSource.only();
    await advance(MIN_STAGE_MS * 2);
    stream.emit('progress', { stage: 'creating', message: CREATING });
    expect(runner.getSnapshot()).toMatchObject({ stage: CREATING }); // "Uploading image..." had had its time
    await advance(2_000);
    stream.emit('progress', { stage: 'polling', message: checking(1) });
    expect(runner.getSnapshot()).toMatchObject({ stage: checking(1) });
    await advance(100);
    stream.emit('progress', { stage: 'polling', message: checking(2) });
    expect(runner.getSnapshot()).toMatchObject({ stage: checking(2) }); // the same message, the next number: at once
    await advance(MIN_STAGE_MS);
    stream.emit('completed', {});
    expect(runner.getSnapshot()).toMatchObject({ phase: 'completed' });
  });

  it('shows a stage the stream repeats (a reconnected stream starts again from the first stage) only once', async () => {
    await start();
    const stream = FakeEventSource.only();
    stream.emit('progress', { stage: 'creating', message: CREATING });
    stream.emit('progress', { stage: 'starting', message: STARTING });
    await showAll();
    stream.emit('progress', { stage: 'creating', message: CREATING });
    stream.emit('progress', { stage: 'starting', message: STARTING });
    stream.emit('progress', { stage: 'processing', message: PROCESSING });
    await showAll();
    expect(stages()).toEqual([CLIENT_STAGES.preparing, CLIENT_STAGES.uploading, CREATING, STARTING, PROCESSING]);
  });

  it('shows the stage name when a progress event has no message, and ignores one it cannot read', async () => {
    await start();
    const stream = FakeEventSource.only();
    stream.emit('progress', { stage: 'processing' });
    await showAll();
    expect(runner.getSnapshot()).toMatchObject({ stage: 'processing' });
    stream.emit('progress', 'not json');
    stream.emit('progress', {});
    await showAll();
    expect(runner.getSnapshot()).toMatchObject({ stage: 'processing' });
  });

  it('on completion keeps the id and category for the panel, closes the stream, and refreshes credits and lists', async () => {
    await start();
    const stream = FakeEventSource.only();
    stream.emit('completed', { generation: generation({ status: 'completed' }) });
    expect(stream.closed).toBe(true);
    await showAll();
    expect(runner.getSnapshot()).toEqual({
      phase: 'completed',
      stage: CLIENT_STAGES.complete,
      category: 'active_wear',
      generationId: GEN_ID,
    });
    expect(stream.closed).toBe(true);
    expect(invalidated(['me'])).toBe(true);
    expect(invalidated(['generations', { category: null }])).toBe(true);
    expect(runner.busy).toBe(false);
  });

  it('takes the "Generation started successfully" toast away when the generation ends, so it never sits beside "Complete!"', async () => {
    await start();
    const startedId = toaster.getVisibleToasts().find((toast) => toast.title === GENERATE_MESSAGES.started)?.id;
    expect(startedId).toBeDefined();
    FakeEventSource.only().emit('completed', { generation: generation({ status: 'completed' }) });
    await showAll();
    expect(runner.getSnapshot()).toMatchObject({ phase: 'completed', stage: CLIENT_STAGES.complete });
    expect(dismissed).toContain(startedId);
  });

  it('takes it away when the generation is cancelled too', async () => {
    api.on(CANCEL_ROUTE, ok(generation({ status: 'failed', error: 'Cancelled' })));
    await start();
    const startedId = toaster.getVisibleToasts().find((toast) => toast.title === GENERATE_MESSAGES.started)?.id;
    await runner.cancel();
    await settle();
    expect(dismissed).toContain(startedId);
    expect(toasts.at(-1)).toEqual({ type: 'info', title: GENERATE_MESSAGES.cancelled });
  });

  it('a failed event shows its reason, clears the progress, closes the stream and refreshes the credits', async () => {
    await start();
    const stream = FakeEventSource.only();
    stream.emit('failed', { reason: 'The AI provider could not process this photo' });
    expect(runner.getSnapshot()).toEqual({ phase: 'idle' });
    expect(toasts.at(-1)).toEqual({
      type: 'error',
      title: GENERATE_MESSAGES.failed,
      description: 'The AI provider could not process this photo',
    });
    expect(stream.closed).toBe(true);
    expect(invalidated(['me'])).toBe(true);
  });

  it('a failed event without a reason says "Generation failed"', async () => {
    await start();
    FakeEventSource.only().emit('failed', {});
    expect(toasts.at(-1)).toEqual({ type: 'error', title: GENERATE_MESSAGES.failed, description: GENERATE_MESSAGES.failedReason });
  });

  it('asks nothing by polling while the stream works, even across a dropped connection the browser retries', async () => {
    await start();
    const stream = FakeEventSource.only();
    stream.emit('progress', { message: PROCESSING });
    stream.error({ reconnect: true });
    await advance(30_000);
    expect(api.count(GEN_ROUTE)).toBe(0);
    expect(FakeEventSource.instances).toHaveLength(1);
    stream.emit('completed', {});
    await showAll();
    expect(runner.getSnapshot()).toMatchObject({ phase: 'completed', generationId: GEN_ID });
  });

  it('acknowledging the completed generation goes back to idle; acknowledging a running one does nothing', async () => {
    await start();
    runner.acknowledge();
    expect(runner.getSnapshot()).toMatchObject({ phase: 'running' });
    FakeEventSource.only().emit('completed', {});
    await showAll();
    runner.acknowledge();
    expect(runner.getSnapshot()).toEqual({ phase: 'idle' });
  });
});

describe('falling back to polling GET /api/generations/:id', () => {
  it('when the stream is given up, asks at once, then every 3 s, shows the progress, and completes', async () => {
    api.on(
      GEN_ROUTE,
      ok(generation({ progress: progressAt('processing') })),
      ok(generation({ progress: progressAt('polling', 1) })),
      ok(generation({ status: 'completed', progress: progressAt('complete', 2) })),
    );
    await start();
    const stream = FakeEventSource.only();
    stream.error();
    expect(stream.closed).toBe(true);
    await advance(0);
    expect(api.count(GEN_ROUTE)).toBe(1);

    await advance(2_999);
    expect(api.count(GEN_ROUTE)).toBe(1);
    expect(runner.getSnapshot()).toMatchObject({ stage: PROCESSING }); // in its turn, after "Uploading image..."
    await advance(1);
    expect(api.count(GEN_ROUTE)).toBe(2);
    expect(runner.getSnapshot()).toMatchObject({ stage: checking(1) });

    await advance(3_000);
    await advance(MIN_STAGE_MS); // "Finalizing...", passed between the two last answers, has its turn
    expect(runner.getSnapshot()).toEqual({
      phase: 'completed',
      stage: CLIENT_STAGES.complete,
      category: 'active_wear',
      generationId: GEN_ID,
    });
    expect(stages()).toEqual([
      CLIENT_STAGES.preparing,
      CLIENT_STAGES.uploading,
      CREATING,
      STARTING,
      PROCESSING,
      checking(1),
      checking(2),
      FINALIZING,
      CLIENT_STAGES.complete,
    ]);
    expect(invalidated(['generations', { category: null }])).toBe(true);
  });

  it('stops asking once the generation has ended', async () => {
    api.on(GEN_ROUTE, ok(generation({ status: 'completed' })));
    await start();
    FakeEventSource.only().error();
    await advance(0);
    await advance(60_000);
    expect(api.count(GEN_ROUTE)).toBe(1);
  });

  it('polls from the start when there is no access token for the stream', async () => {
    token = null;
    await start();
    expect(FakeEventSource.instances).toHaveLength(0);
    await advance(0);
    expect(api.count(GEN_ROUTE)).toBe(1);
  });

  it('polls from the start when the browser has no EventSource, and shows every stage passed, each for its time', async () => {
    vi.stubGlobal('EventSource', undefined);
    // the worker was quick: the start's answer says "starting" already, the first poll "completed"
    api.on(GEN_ROUTE, ok(generation({ status: 'completed', progress: progressAt('complete', 1) })));
    await start();
    await advance(0);
    await advance(MIN_STAGE_MS * 8); // every message before "Complete!", each its turn
    expect(runner.getSnapshot()).toMatchObject({ phase: 'completed' });
    // without the stream, the answers' steps say which stages the server passed, "Creating generation record..." first
    expect(stages()).toEqual([
      CLIENT_STAGES.preparing,
      CLIENT_STAGES.uploading,
      CREATING,
      STARTING,
      PROCESSING,
      checking(1),
      FINALIZING,
      CLIENT_STAGES.complete,
    ]);
    for (const { stage, ms } of shownFor().slice(0, -1)) expect({ stage, ms: ms! >= MIN_STAGE_MS }).toEqual({ stage, ms: true });
  });

  it('a failed generation shows its error; one without an error says "Generation failed"', async () => {
    api.on(GEN_ROUTE, ok(generation({ status: 'failed', error: 'Content policy violation' })));
    await start();
    FakeEventSource.only().error();
    await advance(0);
    expect(runner.getSnapshot()).toEqual({ phase: 'idle' });
    expect(toasts.at(-1)).toEqual({ type: 'error', title: GENERATE_MESSAGES.failed, description: 'Content policy violation' });

    FakeEventSource.reset();
    api.on(GEN_ROUTE, ok(generation({ status: 'failed', error: null })));
    await start();
    FakeEventSource.only().error();
    await advance(0);
    expect(toasts.at(-1)).toEqual({ type: 'error', title: GENERATE_MESSAGES.failed, description: GENERATE_MESSAGES.failedReason });
  });

  it('keeps asking through a lost connection, and reaches the final state', async () => {
    api.on(
      GEN_ROUTE,
      'network',
      apiError(503, 'UNAVAILABLE', 'Service unavailable'),
      ok(generation({ status: 'completed', progress: progressAt('complete') })),
    );
    await start();
    FakeEventSource.only().error();
    await advance(0);
    await advance(3_000);
    expect(runner.getSnapshot()).toMatchObject({ phase: 'running' });
    expect(toasts.filter((t) => t.type === 'error')).toEqual([]);
    await advance(3_000);
    expect(api.count(GEN_ROUTE)).toBe(3);
    await showAll(); // the stages it passed meanwhile, each its turn
    expect(runner.getSnapshot()).toMatchObject({ phase: 'completed', generationId: GEN_ID });
  });

  it('a generation that is gone (404) fails with the API message and stops asking', async () => {
    api.on(GEN_ROUTE, apiError(404, 'NOT_FOUND', 'Generation not found'));
    await start();
    FakeEventSource.only().error();
    await advance(0);
    expect(toasts.at(-1)).toEqual({ type: 'error', title: GENERATE_MESSAGES.failed, description: 'Generation not found' });
    await advance(30_000);
    expect(api.count(GEN_ROUTE)).toBe(1);
  });

  it('a second error of the closed stream does not start a second round of polling', async () => {
    await start();
    const stream = FakeEventSource.only();
    stream.error();
    stream.onerror?.call(stream as unknown as EventSource, new Event('error'));
    await advance(0);
    await advance(9_000);
    expect(api.count(GEN_ROUTE)).toBe(4);
  });
});

describe('cancel', () => {
  it('of a running generation asks the server once, closes the stream and says it was cancelled', async () => {
    api.on(CANCEL_ROUTE, ok(generation({ status: 'failed', error: 'Cancelled' })));
    await start();
    const stream = FakeEventSource.only();
    await runner.cancel();
    expect(api.count(CANCEL_ROUTE)).toBe(1);
    expect(stream.closed).toBe(true);
    expect(runner.getSnapshot()).toEqual({ phase: 'idle' });
    expect(toasts.at(-1)).toEqual({ type: 'info', title: GENERATE_MESSAGES.cancelled });
    expect(invalidated(['me'])).toBe(true);
  });

  it('a double click on Cancel asks the server once', async () => {
    const cancelling = api.hold(CANCEL_ROUTE);
    await start();
    const first = runner.cancel();
    void runner.cancel(); // the second click, while the first is on its way
    await cancelling.arrived;
    await settle();
    expect(api.count(CANCEL_ROUTE)).toBe(1);
    cancelling.answer(ok(generation({ status: 'failed', error: 'Cancelled' })));
    await first;
    await settle();
    expect(api.count(CANCEL_ROUTE)).toBe(1);
    expect(toasts.filter((t) => t.title === GENERATE_MESSAGES.cancelled)).toHaveLength(1);
    expect(runner.getSnapshot()).toEqual({ phase: 'idle' });
  });

  it('a double click on Cancel while uploading aborts once and says it once', async () => {
    const upload = api.hold('POST /api/uploads');
    await start();
    await upload.arrived;
    await Promise.all([runner.cancel(), runner.cancel()]);
    await settle();
    expect(toasts).toEqual([{ type: 'info', title: GENERATE_MESSAGES.cancelled }]);
  });

  it('after the generation completed (its last messages still showing) cancels nothing and shows the result at once', async () => {
    await start();
    const stream = FakeEventSource.only();
    stream.emit('progress', { stage: 'finalizing', message: FINALIZING });
    stream.emit('completed', {});
    expect(runner.getSnapshot()).toMatchObject({ phase: 'running' });
    await runner.cancel();
    expect(api.count(CANCEL_ROUTE)).toBe(0);
    expect(runner.getSnapshot()).toMatchObject({ phase: 'completed', generationId: GEN_ID });
    expect(toasts.filter((t) => t.title === GENERATE_MESSAGES.cancelled)).toEqual([]);
  });

  it('stops the polling too: nothing is asked after a cancel', async () => {
    api.on(CANCEL_ROUTE, ok(generation({ status: 'failed' })));
    await start();
    FakeEventSource.only().error();
    await advance(0);
    await runner.cancel();
    await advance(30_000);
    expect(api.count(GEN_ROUTE)).toBe(1);
    expect(runner.getSnapshot()).toEqual({ phase: 'idle' });
  });

  it('while uploading aborts the upload and starts nothing', async () => {
    const upload = api.hold('POST /api/uploads');
    await start();
    const { request: sent } = await upload.arrived;
    await runner.cancel();
    await settle();
    expect(sent.signal.aborted).toBe(true);
    expect(api.count('POST /api/generations')).toBe(0);
    expect(runner.getSnapshot()).toEqual({ phase: 'idle' });
    expect(toasts).toEqual([{ type: 'info', title: GENERATE_MESSAGES.cancelled }]);
    expect(refusals).toEqual([]);
  });

  it('while checking aborts the check and uploads nothing', async () => {
    const check = api.hold('POST /api/generations/check');
    await start();
    await check.arrived;
    await runner.cancel();
    await settle();
    expect(api.routes).toEqual(['POST /api/generations/check']);
    expect(toasts).toEqual([{ type: 'info', title: GENERATE_MESSAGES.cancelled }]);
  });

  it('while the start is on its way waits for its id, then cancels that generation on the server', async () => {
    const starting = api.hold('POST /api/generations');
    api.on(CANCEL_ROUTE, ok(generation({ status: 'failed' })));
    await start();
    await starting.arrived;
    await runner.cancel();
    expect(api.count(CANCEL_ROUTE)).toBe(0);
    starting.answer(ok(generation()));
    await settle();
    expect(api.count(CANCEL_ROUTE)).toBe(1);
    expect(FakeEventSource.instances).toHaveLength(0);
    expect(toasts).toEqual([{ type: 'info', title: GENERATE_MESSAGES.cancelled }]);
    expect(runner.getSnapshot()).toEqual({ phase: 'idle' });
  });

  it('of a generation that had already ended (409) is still a plain cancel, without an error', async () => {
    api.on(CANCEL_ROUTE, apiError(409, 'GENERATION_NOT_RUNNING', 'Generation is not running'));
    await start();
    await runner.cancel();
    expect(toasts.slice(1)).toEqual([{ type: 'info', title: GENERATE_MESSAGES.cancelled }]);
  });

  it('that the server could not do shows the error, then resets', async () => {
    api.on(CANCEL_ROUTE, 'network');
    await start();
    await runner.cancel();
    expect(toasts.slice(1)).toEqual([
      { type: 'error', title: GENERATE_MESSAGES.failed, description: NETWORK_ERROR_MESSAGE },
      { type: 'info', title: GENERATE_MESSAGES.cancelled },
    ]);
    expect(runner.getSnapshot()).toEqual({ phase: 'idle' });
  });

  it('with nothing running asks nothing', async () => {
    await runner.cancel();
    expect(api.requests).toEqual([]);
    expect(toasts).toEqual([]);
  });
});

describe('another user signs in (reset)', () => {
  it('forgets the generation: its later events and answers change nothing', async () => {
    await start();
    const stream = FakeEventSource.only();
    runner.reset();
    expect(runner.getSnapshot()).toEqual({ phase: 'idle' });
    expect(runner.owner).toBeNull();
    expect(stream.closed).toBe(true);
    // An event the browser had already queued before the close still reaches the listeners.
    stream.dispatchEvent(new MessageEvent('completed', { data: '{}' }));
    await advance(30_000);
    expect(runner.getSnapshot()).toEqual({ phase: 'idle' });
    expect(api.count(GEN_ROUTE)).toBe(0);
  });

  it('drops a start still on its way: its answer neither follows nor announces the generation', async () => {
    const starting = api.hold('POST /api/generations');
    await start();
    await starting.arrived;
    runner.reset();
    starting.answer(ok(generation()));
    await settle();
    expect(FakeEventSource.instances).toHaveLength(0);
    expect(toasts).toEqual([]);
    expect(runner.getSnapshot()).toEqual({ phase: 'idle' });
  });

  it('a new generation after a reset is followed on its own stream; the old stream no longer counts', async () => {
    await start();
    const old = FakeEventSource.only();
    runner.reset();
    api.on('POST /api/generations', ok(generation({ id: 'gen-2', progress: progressAt('starting') })));
    await start();
    const current = FakeEventSource.instances[1]!;
    old.onerror?.call(old as unknown as EventSource, new Event('error'));
    await advance(0);
    expect(api.requests.filter((r) => r.route.startsWith('GET /api/generations/'))).toEqual([]);
    current.emit('progress', { message: PROCESSING });
    await showAll();
    expect(runner.getSnapshot()).toMatchObject({ generationId: 'gen-2', stage: PROCESSING });
  });
});

import { GENERATION_TOASTS, PROGRESS_WORDING } from '@fitting-room/shared';
import { ApiError, errorMessage, isAbortError } from '@fitting-room/shared/browser';
import { notify } from '../../components/toaster';
import { isFaceRefusal } from '../faces/face-errors';
import { generationApi, type Generation, type GenerationCheckBody, type GenerationStartBody } from '../generations/generation-api';
import { generationsQueryKey } from '../generations/generations-queries';
import { meQueryKey } from '../profile/profile-queries';
import { uploadUsageQueryKey } from './upload-usage';
import type { GenerationType } from '../catalog/catalog-helpers';
import type { CustomPoseNotUnderstood } from './custom-pose-help';
import type { QueryClient } from '@tanstack/react-query';

/**
 * The client's own stages (docs/product.md); the server reports the ones after them. Their words,
 * and the server's, are the shared package's (`@fitting-room/shared/generation-wording`).
 */
export const CLIENT_STAGES = {
  preparing: PROGRESS_WORDING.preparing,
  uploading: PROGRESS_WORDING.uploading,
  complete: PROGRESS_WORDING.complete,
} as const;

export const GENERATE_MESSAGES = {
  ...GENERATION_TOASTS,
  /** Fallback when a failed generation carries no reason (docs/product.md). */
  failedReason: 'Generation failed',
} as const;

/** The fallback when the live stream is not available: poll every 3 s. */
const POLL_INTERVAL_MS = 3_000;

/**
 * Each progress message stays at least this long before the next one replaces it, so that a
 * quick step ("Creating generation record...") can be read. Later messages wait their turn; the
 * final "Complete!" comes as soon as the messages before it have had theirs.
 */
export const MIN_STAGE_MS = 500;

/** A progress message waiting its turn (`key`: its kind; a newer message of the same kind takes its place), or the final state. */
type QueuedStage = { key: string; message: string } | { final: () => void };

export type RunnerState =
  | { phase: 'idle' }
  | {
      phase: 'running';
      stage: string;
      category: string;
      type: GenerationType;
      generationId: string | null;
    }
  /** The last generation finished: its id and category, until the next one starts. */
  | { phase: 'completed'; stage: string; category: string; generationId: string };

/** A photo of the batch: uploaded already (its id), or a file to upload first. */
export interface RunnerPhoto {
  file: File;
  uploadId?: string | undefined;
}

export interface GenerationRequest {
  photos: RunnerPhoto[];
  type: GenerationType;
  category: string;
  templateId: string;
  pose: { sceneId: string } | { customPose: string };
  /** Called with each uploaded photo's id, so a later generation with the same photos skips the upload. */
  onUploaded(ids: Map<File, string>): void;
  /**
   * Called when the API refuses before the generation starts, with its message as the API words it:
   * at the check (`check`: nothing was uploaded, nothing held) or at the upload (`upload`: quota,
   * size, busy). The panel shows it where it belongs; no toast is shown for these.
   */
  onRefused(refusal: Refusal): void;
}

export interface Refusal {
  step: 'check' | 'upload';
  message: string;
  /** CUSTOM_POSE_NOT_UNDERSTOOD at the check: what the custom-pose check did not understand, with close words it knows */
  notUnderstood?: CustomPoseNotUnderstood | undefined;
  /** a face refusal's code (FACE_SELFIE_REQUIRED opens the live selfie, FACE_CONSENT_REQUIRED the consent) */
  code?: string | undefined;
}

/** An error of one step of the start, tagged with the step, so the panel can show it in place. */
class StepError extends Error {
  constructor(
    readonly step: Refusal['step'],
    readonly error: unknown,
  ) {
    super(errorMessage(error));
  }
}

export interface RunnerDeps {
  queryClient: QueryClient;
  /** The current access token (EventSource cannot send headers: the API reads it from the URL). */
  getAccessToken(): string | null;
}

interface ServerEvent {
  stage?: string;
  message?: string;
  reason?: string;
  generation?: Generation;
}

/**
 * Runs one generation at a time for the signed-in user, across screens: checks the choice with
 * the API first (a refused pose or balance uploads nothing), uploads the photos, starts the generation, follows its progress over server-sent events (or by polling when the
 * stream is unavailable), and refreshes the user's credits and lists when it ends. Each progress
 * message, the client's and the server's, is shown in order for at least MIN_STAGE_MS. Screens read
 * its state through `useGenerationRunner`; it lives outside them so that moving from one screen
 * to another never loses a running generation.
 */
export class GenerationRunner {
  private state: RunnerState = { phase: 'idle' };
  private readonly listeners = new Set<() => void>();
  private run = 0;
  private abort: AbortController | null = null;
  private events: EventSource | null = null;
  private pollTimer: ReturnType<typeof setTimeout> | undefined;
  /** The progress messages waiting their turn, the kind of the one shown, since when, and the wait's timer. */
  private queue: QueuedStage[] = [];
  private shownKey = '';
  private shownAt = 0;
  private stageTimer: ReturnType<typeof setTimeout> | undefined;
  /** The server's messages already shown or queued in this run (a reconnected stream repeats the stages passed). */
  private seen = new Set<string>();
  /** The generation completed: its final state is queued behind the messages still to show. */
  private finishing = false;
  /** The "Generation started successfully" toast, taken away when the generation ends. */
  private startedToast: string | null = null;
  private cancelRequested = false;
  private deps: RunnerDeps | null = null;
  /** Whose generation this is: another user's session must not see it. */
  owner: string | null = null;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): RunnerState => this.state;

  private set(next: RunnerState): void {
    this.state = next;
    for (const listener of this.listeners) listener();
  }

  get busy(): boolean {
    return this.state.phase === 'running';
  }

  /** Starts a generation; while one runs a second call is ignored (docs/product.md). */
  async start(request: GenerationRequest, deps: RunnerDeps, owner: string): Promise<void> {
    if (this.busy) {
      console.warn('A generation is already running: this request is ignored.');
      return;
    }
    const run = ++this.run;
    this.deps = deps;
    this.owner = owner;
    this.cancelRequested = false;
    this.finishing = false;
    this.seen = new Set();
    this.abort = new AbortController();
    const { signal } = this.abort;
    const running = { phase: 'running' as const, category: request.category, type: request.type, generationId: null };
    this.clearStages();
    this.set({ ...running, stage: CLIENT_STAGES.preparing });
    this.shownKey = 'client:preparing';
    this.shownAt = Date.now();

    const choice: GenerationCheckBody = {
      type: request.type,
      category: request.category,
      template_id: request.templateId,
      ...('sceneId' in request.pose ? { scene_id: request.pose.sceneId } : { custom_pose: request.pose.customPose }),
    };
    try {
      // First the same checks as a start, without the photos: a refused choice uploads nothing.
      await generationApi.check(choice, signal).catch((error: unknown) => {
        throw new StepError('check', error);
      });
      if (run !== this.run) return;

      const uploadIds = await this.uploadBatch(request, signal, run);
      if (run !== this.run) return;

      const body: GenerationStartBody = { ...choice, upload_ids: uploadIds };
      // Not aborted by Cancel: the answer carries the id that Cancel needs.
      const generation = await generationApi.start(body).catch((error: unknown) => {
        // "Only you": a face refusal at the start (mixed set, selfie needed) is about the photos
        throw isFaceRefusal(error) ? new StepError('upload', error) : error;
      });
      if (run !== this.run) return;
      if (this.cancelRequested) {
        await this.cancelOnServer(generation.id);
        return;
      }
      this.startedToast = notify.success({ title: GENERATE_MESSAGES.started });
      // The id at once (Cancel needs it); the stage as its turn comes.
      if (this.state.phase === 'running') this.set({ ...this.state, generationId: generation.id });
      this.follow(generation.id, run, generation.progress);
    } catch (thrown) {
      if (run !== this.run) return;
      const error = thrown instanceof StepError ? thrown.error : thrown;
      if (isAbortError(error) || this.cancelRequested) {
        this.finishCancelled();
        return;
      }
      if (thrown instanceof StepError) {
        const notUnderstood = thrown.error instanceof ApiError ? thrown.error.notUnderstood : undefined;
        const code = isFaceRefusal(thrown.error) ? thrown.error.code : undefined;
        this.refuse(request, {
          step: thrown.step,
          message: thrown.message,
          ...(code ? { code } : {}),
          ...(notUnderstood ? { notUnderstood } : {}),
        });
        return;
      }
      this.fail(errorMessage(error));
    }
  }

  /** Uploads the photos not uploaded yet, in one batch, and answers every photo's id in order. */
  private async uploadBatch(request: GenerationRequest, signal: AbortSignal, run: number): Promise<string[]> {
    const pending = request.photos.filter((photo) => !photo.uploadId).map((photo) => photo.file);
    const ids = new Map<File, string>();
    if (pending.length > 0) {
      this.showStage('client:uploading', CLIENT_STAGES.uploading, run);
      const { uploads } = await generationApi.uploadPhotos(pending, signal).catch((error: unknown) => {
        throw new StepError('upload', error);
      });
      void this.deps?.queryClient.invalidateQueries({ queryKey: uploadUsageQueryKey });
      pending.forEach((file, i) => {
        const id = uploads[i]?.id;
        if (id) ids.set(file, id);
      });
      request.onUploaded(ids);
    }
    return request.photos.flatMap((photo) => photo.uploadId ?? ids.get(photo.file) ?? []);
  }

  /**
   * Shows a progress message in its turn: at once when the one shown has had its MIN_STAGE_MS,
   * else after it (and after those already waiting). A newer message of the kind shown or last
   * queued (the next status check) takes that one's place instead of waiting behind it.
   */
  private showStage(key: string, message: string, run: number): void {
    if (run !== this.run || this.state.phase !== 'running' || this.finishing) return;
    const last = this.queue.at(-1);
    if (!last && key === this.shownKey) {
      if (this.state.stage !== message) this.set({ ...this.state, stage: message });
      return;
    }
    if (last && 'key' in last && last.key === key) last.message = message;
    else this.queue.push({ key, message });
    this.pump();
  }

  /** A progress event or answer of the server: shown in its turn, unless it was shown already. */
  private serverStage(stage: string | undefined, message: string | undefined, run: number): void {
    const text = message || stage;
    if (!text || this.seen.has(text)) return;
    this.seen.add(text);
    this.showStage(`server:${stage ?? text}`, text, run);
  }

  /**
   * The progress of a generation as the API answers it (the start, or a poll): the message of every
   * stage it has passed (`steps`), each in its turn, so that a stage that came and went between two
   * polls is shown as it would have been over the stream.
   */
  private serverProgress(progress: Generation['progress'] | undefined, run: number): void {
    if (!progress) return;
    const steps = progress.steps?.length ? progress.steps : [progress];
    for (const step of steps) if (step.stage !== 'complete' && step.stage !== 'failed') this.serverStage(step.stage, step.message, run);
  }

  /** Shows the next waiting message, or ends, once the one shown has had its time; else waits for that. */
  private pump(): void {
    if (this.stageTimer !== undefined) return;
    const next = this.queue[0];
    if (!next) return;
    const wait = this.shownAt + MIN_STAGE_MS - Date.now();
    if (wait > 0) {
      this.stageTimer = setTimeout(() => {
        this.stageTimer = undefined;
        this.pump();
      }, wait);
      return;
    }
    this.queue.shift();
    if ('final' in next) {
      next.final();
      return;
    }
    if (this.state.phase !== 'running') return;
    this.set({ ...this.state, stage: next.message });
    this.shownKey = next.key;
    this.shownAt = Date.now();
    this.pump();
  }

  /** Forgets the waiting messages (the generation failed, was cancelled or forgotten). */
  private clearStages(): void {
    clearTimeout(this.stageTimer);
    this.stageTimer = undefined;
    this.queue = [];
    this.shownKey = '';
  }

  /**
   * Follows the generation's events; falls back to polling when the stream cannot be used. The
   * stream starts with every stage the generation has passed, so the start's answer is shown only
   * when polling.
   */
  private follow(id: string, run: number, progress: Generation['progress'] | undefined): void {
    const token = this.deps?.getAccessToken();
    if (typeof EventSource === 'undefined' || !token) {
      this.serverProgress(progress, run);
      this.poll(id, run, 0);
      return;
    }
    const events = new EventSource(generationApi.eventsUrl(id, token));
    this.events = events;
    const parse = (event: MessageEvent): ServerEvent => {
      try {
        return JSON.parse(String(event.data)) as ServerEvent;
      } catch {
        return {};
      }
    };
    events.addEventListener('progress', (event) => {
      const data = parse(event as MessageEvent);
      this.serverStage(data.stage, data.message, run);
    });
    events.addEventListener('completed', (event) => {
      const data = parse(event as MessageEvent);
      this.complete(data.generation?.id ?? id, run);
    });
    events.addEventListener('failed', (event) => {
      if (run !== this.run) return;
      this.closeEvents();
      this.fail(parse(event as MessageEvent).reason || GENERATE_MESSAGES.failedReason);
    });
    events.onerror = () => {
      // A closed stream (refused, or ended without a final event): ask the server directly.
      if (events.readyState === EventSource.CLOSED && this.events === events) {
        this.closeEvents();
        this.poll(id, run, 0);
      }
    };
  }

  private poll(id: string, run: number, delayMs: number): void {
    clearTimeout(this.pollTimer);
    this.pollTimer = setTimeout(() => void this.pollOnce(id, run), delayMs);
  }

  private async pollOnce(id: string, run: number): Promise<void> {
    if (run !== this.run || this.state.phase !== 'running') return;
    try {
      const generation = await generationApi.get(id);
      if (run !== this.run) return;
      if (generation.status === 'failed') return this.fail(generation.error || GENERATE_MESSAGES.failedReason);
      // the stages passed since the last answer first, each its turn; a completed one's "Complete!" after them
      this.serverProgress(generation.progress, run);
      if (generation.status === 'completed') return this.complete(id, run);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return this.fail(error.message);
      // A passing failure (network): keep asking.
    }
    this.poll(id, run, POLL_INTERVAL_MS);
  }

  /** Stops following at once; the completed state (and the refreshed lists) come after the messages still waiting. */
  private complete(generationId: string, run: number): void {
    if (run !== this.run || this.state.phase !== 'running' || this.finishing) return;
    const { category } = this.state;
    this.finishing = true;
    this.closeEvents();
    clearTimeout(this.pollTimer);
    this.queue.push({
      final: () => {
        if (run !== this.run) return;
        this.stop();
        this.set({ phase: 'completed', stage: CLIENT_STAGES.complete, category, generationId });
        this.refresh();
      },
    });
    this.pump();
  }

  /** Shows the failure, clears the progress, and refreshes the credits (the hold was released). */
  private fail(message: string): void {
    this.stop();
    this.set({ phase: 'idle' });
    notify.error({ title: GENERATE_MESSAGES.failed, description: message });
    this.refresh();
  }

  /** Refused before the start (check or upload): back to idle, and the panel shows the API's message. */
  private refuse(request: GenerationRequest, refusal: Refusal): void {
    this.stop();
    this.set({ phase: 'idle' });
    request.onRefused(refusal);
    if (refusal.step === 'upload') void this.deps?.queryClient.invalidateQueries({ queryKey: uploadUsageQueryKey });
    this.refresh();
  }

  /** Cancel aborts and resets (docs/product.md): the server stops the work and releases the hold. */
  async cancel(): Promise<void> {
    // Once is enough: a second click while the first is on its way sends nothing.
    if (this.state.phase !== 'running' || this.cancelRequested) return;
    if (this.finishing) {
      // It has completed already: nothing to cancel, the result is shown now.
      this.flushStages();
      return;
    }
    const { generationId } = this.state;
    this.cancelRequested = true;
    if (generationId) {
      await this.cancelOnServer(generationId);
    } else {
      // Checking or uploading: abort it. Starting: the start's answer brings the id, then it is cancelled.
      this.abort?.abort();
    }
  }

  private async cancelOnServer(id: string): Promise<void> {
    const run = this.run;
    this.stop();
    try {
      await generationApi.cancel(id);
    } catch (error) {
      // Already finished: the lists and credits below show how it ended.
      if (!(error instanceof ApiError && error.status === 409)) {
        notify.error({ title: GENERATE_MESSAGES.failed, description: errorMessage(error) });
      }
    }
    if (run === this.run) this.finishCancelled();
  }

  private finishCancelled(): void {
    this.stop();
    this.set({ phase: 'idle' });
    notify.info({ title: GENERATE_MESSAGES.cancelled });
    this.refresh();
  }

  /** Forgets everything (another user signed in). A running generation goes on on the server. */
  reset(): void {
    this.run += 1;
    this.stop();
    this.owner = null;
    this.set({ phase: 'idle' });
  }

  /** Back to idle after a completed generation (the panel's "Complete!" has been seen). */
  acknowledge(): void {
    if (this.state.phase === 'completed') this.set({ phase: 'idle' });
  }

  /** Runs the queued final state at once, skipping the messages still waiting. */
  private flushStages(): void {
    const final = this.queue.find((item) => 'final' in item);
    this.clearStages();
    if (final && 'final' in final) final.final();
  }

  private stop(): void {
    this.dismissStarted();
    this.closeEvents();
    clearTimeout(this.pollTimer);
    this.clearStages();
    this.finishing = false;
    this.abort = null;
  }

  /** The start's toast goes when the generation ends ("Complete!" is in the panel; a failure has its own toast). */
  private dismissStarted(): void {
    if (this.startedToast !== null) notify.dismiss(this.startedToast);
    this.startedToast = null;
  }

  private closeEvents(): void {
    this.events?.close();
    this.events = null;
  }

  private refresh(): void {
    const queryClient = this.deps?.queryClient;
    if (!queryClient) return;
    void queryClient.invalidateQueries({ queryKey: meQueryKey, exact: true });
    void queryClient.invalidateQueries({ queryKey: generationsQueryKey });
  }
}

/** The app's one runner: one generation at a time per browser tab. */
export const generationRunner = new GenerationRunner();

import { ApiError, errorMessage, isAbortError } from '@fitting-room/shared/browser';
import { notify } from '../../components/toaster';
import { generationApi, type Generation, type GenerationCheckBody, type GenerationStartBody } from '../generations/generation-api';
import { generationsQueryKey } from '../generations/generations-queries';
import { meQueryKey } from '../profile/profile-queries';
import { uploadUsageQueryKey } from './upload-usage';
import type { GenerationType } from '../catalog/catalog-helpers';
import type { QueryClient } from '@tanstack/react-query';

/** The client's own stages (docs/product.md); the server reports the ones after them. */
export const CLIENT_STAGES = {
  preparing: 'Preparing image...',
  uploading: 'Uploading image...',
  complete: 'Complete!',
} as const;

export const GENERATE_MESSAGES = {
  started: 'Generation started successfully',
  failed: 'Failed to generate',
  cancelled: 'Generation cancelled',
  /** Fallback when a failed generation carries no reason (docs/product.md). */
  failedReason: 'Generation failed',
} as const;

/** The fallback when the live stream is not available: poll every 3 s. */
const POLL_INTERVAL_MS = 3_000;

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
 * stream is unavailable), and refreshes the user's credits and lists when it ends. Screens read
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
    this.abort = new AbortController();
    const { signal } = this.abort;
    const running = { phase: 'running' as const, category: request.category, type: request.type, generationId: null };
    this.set({ ...running, stage: CLIENT_STAGES.preparing });

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
      const generation = await generationApi.start(body);
      if (run !== this.run) return;
      if (this.cancelRequested) {
        await this.cancelOnServer(generation.id);
        return;
      }
      notify.success({ title: GENERATE_MESSAGES.started });
      this.set({ ...running, generationId: generation.id, stage: generation.progress?.message || CLIENT_STAGES.preparing });
      this.follow(generation.id, run);
    } catch (thrown) {
      if (run !== this.run) return;
      const error = thrown instanceof StepError ? thrown.error : thrown;
      if (isAbortError(error) || this.cancelRequested) {
        this.finishCancelled();
        return;
      }
      if (thrown instanceof StepError) {
        this.refuse(request, { step: thrown.step, message: thrown.message });
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
      this.setStage(CLIENT_STAGES.uploading, run);
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

  private setStage(stage: string, run: number): void {
    if (run !== this.run || this.state.phase !== 'running') return;
    this.set({ ...this.state, stage });
  }

  /** Follows the generation's events; falls back to polling when the stream cannot be used. */
  private follow(id: string, run: number): void {
    const token = this.deps?.getAccessToken();
    if (typeof EventSource === 'undefined' || !token) {
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
      const stage = data.message ?? data.stage;
      if (stage) this.setStage(stage, run);
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
      if (generation.status === 'completed') return this.complete(id, run);
      if (generation.status === 'failed') return this.fail(generation.error || GENERATE_MESSAGES.failedReason);
      if (generation.progress?.message) this.setStage(generation.progress.message, run);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return this.fail(error.message);
      // A passing failure (network): keep asking.
    }
    this.poll(id, run, POLL_INTERVAL_MS);
  }

  private complete(generationId: string, run: number): void {
    if (run !== this.run || this.state.phase !== 'running') return;
    const { category } = this.state;
    this.stop();
    this.set({ phase: 'completed', stage: CLIENT_STAGES.complete, category, generationId });
    this.refresh();
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
    if (this.state.phase !== 'running') return;
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

  private stop(): void {
    this.closeEvents();
    clearTimeout(this.pollTimer);
    this.abort = null;
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

import { Injectable, Logger } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import type { Progress } from './generation-progress';

/**
 * What happens to a generation, told in-process after its state and credits have changed. The
 * listeners (analytics, activity, the admin alerts, the person's event stream, the "finished" mail)
 * subscribe with @OnEvent(GenerationLifecycle.x); the generations module does not know them.
 */
export const GenerationLifecycle = {
  started: 'generation.started',
  progress: 'generation.progress',
  completed: 'generation.completed',
  failed: 'generation.failed',
} as const;

export interface GenerationStartedEvent {
  generationId: string;
  userId: string;
  type: 'image' | 'video';
  category: string;
  /** the credits held for it */
  cost: number;
  templateId: string;
  sceneId: string;
}

export interface GenerationProgressEvent {
  generationId: string;
  progress: Progress;
}

export interface GenerationCompletedEvent {
  generationId: string;
  userId: string;
  type: 'image' | 'video';
  category: string;
  /** the credits charged (the captured hold) */
  charged: number;
  provider: string;
  durationMs: number;
}

export interface GenerationFailedEvent {
  generationId: string;
  userId: string;
  type: 'image' | 'video';
  reason: string;
  /** the provider or the safety check refused the content */
  refused: boolean;
  /** the person (or a suspension, or a removal) stopped it: not a failure of the system */
  cancelled: boolean;
}

export interface GenerationEventPayloads {
  [GenerationLifecycle.started]: GenerationStartedEvent;
  [GenerationLifecycle.progress]: GenerationProgressEvent;
  [GenerationLifecycle.completed]: GenerationCompletedEvent;
  [GenerationLifecycle.failed]: GenerationFailedEvent;
}

/**
 * The typed side of the in-process event bus (@nestjs/event-emitter) for a generation's events.
 * emit() waits for every listener and never throws: a listener that fails is logged, and the
 * generation it heard about stays settled.
 */
@Injectable()
export class GenerationEventBus {
  private readonly logger = new Logger('GenerationEvents');

  constructor(private readonly emitter: EventEmitter2) {}

  async emit<K extends keyof GenerationEventPayloads>(name: K, payload: GenerationEventPayloads[K]): Promise<void> {
    try {
      await this.emitter.emitAsync(name, payload);
    } catch (err) {
      this.logger.warn(
        { event: 'generation_event_listener_failed', type: name, generationId: payload.generationId, err },
        `a listener of ${name} failed`,
      );
    }
  }
}

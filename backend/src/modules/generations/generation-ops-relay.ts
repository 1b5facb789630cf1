import { Injectable, Optional } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { OpsEvents } from '../../common/ops-events';
import { GenerationLifecycle, type GenerationCompletedEvent, type GenerationFailedEvent } from './generation-lifecycle';

/**
 * Tells OpsEvents that a generation ended (`generation.finished`), for the listeners that hear
 * facts of the whole system there (the person's "generation finished" mail). Absent OpsEvents (a
 * partial app): nobody listens.
 */
@Injectable()
export class GenerationOpsRelay {
  constructor(@Optional() private readonly ops?: OpsEvents) {}

  @OnEvent(GenerationLifecycle.completed)
  async onCompleted(event: GenerationCompletedEvent): Promise<void> {
    await this.ops?.emit({ type: 'generation.finished', generationId: event.generationId, userId: event.userId, outcome: 'completed' });
  }

  @OnEvent(GenerationLifecycle.failed)
  async onFailed(event: GenerationFailedEvent): Promise<void> {
    const outcome = event.cancelled ? 'cancelled' : 'failed';
    await this.ops?.emit({ type: 'generation.finished', generationId: event.generationId, userId: event.userId, outcome });
  }
}

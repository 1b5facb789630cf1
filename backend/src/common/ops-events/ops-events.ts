import { EventEmitter } from 'node:events';
import { Global, Injectable, Logger, Module } from '@nestjs/common';

/**
 * Facts about the running system that other modules may want to react to (the admin
 * notifications listen; a generation's start and end travel on the generations module's own
 * events, `generation.*`), without the modules that report them knowing who listens. A module that
 * reports injects OpsEvents with @Optional(): absent (a unit test, a partial app) means nobody listens.
 * Only ids and pseudonyms travel here, never personal data.
 */
export type OpsEvent =
  | { type: 'account.deleted'; /** a stable pseudonym (userIdHash), never the id or email */ account: string }
  /** a custom pose was refused by the safety check; `reason`: its most serious category (the metrics count them) */
  | { type: 'safety.custom-pose-refused'; reason: string }
  /** too many refused custom poses in an hour: the account's custom poses are paused until `until` (ISO) */
  | { type: 'safety.custom-pose-paused'; userId: string; refusals: number; until: string }
  /** a face check refused a live selfie or a photo (`outcome`: mismatch, still, no_face, several_faces) */
  | { type: 'faces.check-refused'; kind: 'selfie' | 'photo'; outcome: string }
  /** an account's face checks were refused FACE_REFUSALS_ALERT.refusals times within a day: admins look */
  | { type: 'faces.checks-failing'; userId: string; refusals: number };

export type OpsEventListener = (event: OpsEvent) => unknown;

@Injectable()
export class OpsEvents {
  private readonly logger = new Logger('OpsEvents');
  private readonly emitter = new EventEmitter();

  /** Tells every listener and waits for them; never throws: a failing listener is logged and ignored. */
  async emit(event: OpsEvent): Promise<void> {
    const listeners = this.emitter.listeners('event') as OpsEventListener[];
    await Promise.all(
      listeners.map(async (listener) => {
        try {
          await listener(event);
        } catch (err) {
          this.failed(event, err);
        }
      }),
    );
  }

  /** Adds a listener; returns a function that removes it. */
  subscribe(listener: OpsEventListener): () => void {
    this.emitter.on('event', listener);
    return () => this.emitter.off('event', listener);
  }

  private failed(event: OpsEvent, err: unknown): void {
    this.logger.warn({ event: 'ops_event_listener_failed', type: event.type, err }, `a listener of ${event.type} failed`);
  }
}

/** The event bus, available everywhere (global). */
@Global()
@Module({ providers: [OpsEvents], exports: [OpsEvents] })
export class OpsEventsModule {}

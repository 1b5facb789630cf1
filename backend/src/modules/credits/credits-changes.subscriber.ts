import { type BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  DataSource,
  type EntityManager,
  type EntitySubscriberInterface,
  type TransactionCommitEvent,
  type TransactionRollbackEvent,
} from 'typeorm';
import type { LedgerEntry } from './credits.repository';

/**
 * Emitted on the in-process event bus, with CreditsChangedEvent, once a transaction that wrote
 * ledger entries has committed: an account's balance changed (a charge, a grant, a purchase, an
 * adjustment, an expiry). Holds of running generations are not ledger entries and emit nothing.
 * The developers' webhooks listen (credits.changed).
 */
export const CREDITS_CHANGED_EVENT = 'credits.changed';

export interface CreditsChangedEvent {
  userId: string;
  /** the ledger entries the transaction wrote for the account, in order */
  changes: Pick<LedgerEntry, 'kind' | 'bucket' | 'amount'>[];
}

const PENDING = 'fr:credit-changes';

type PendingChange = Pick<LedgerEntry, 'userId' | 'kind' | 'bucket' | 'amount'>;

/** The changes noted on a transaction (its QueryRunner's `data`). */
function pendingOf(data: Record<string, unknown>, create: boolean): PendingChange[] | undefined {
  if (!data[PENDING] && create) data[PENDING] = [];
  return data[PENDING] as PendingChange[] | undefined;
}

/**
 * Notes a ledger entry on the transaction that writes it (CreditsRepository.insertEntry calls
 * this); the entries are told once the outermost transaction commits, and forgotten when it rolls
 * back. An entry of 0 is no change.
 */
export function noteCreditChange(m: EntityManager, entry: PendingChange): void {
  if (entry.amount === 0 || !m.queryRunner) return;
  pendingOf(m.queryRunner.data as Record<string, unknown>, true)!.push({
    userId: entry.userId,
    kind: entry.kind,
    bucket: entry.bucket,
    amount: entry.amount,
  });
}

/** Tells CREDITS_CHANGED_EVENT after the commit of a transaction that wrote ledger entries. */
@Injectable()
export class CreditsChangesSubscriber implements EntitySubscriberInterface, BeforeApplicationShutdown {
  private readonly logger = new Logger('Credits');
  /** listeners still running: awaited before the app (and its database connection) closes */
  private readonly running = new Set<Promise<unknown>>();

  constructor(
    @InjectDataSource() db: DataSource,
    private readonly events: EventEmitter2,
  ) {
    db.subscribers.push(this);
  }

  afterTransactionCommit(event: TransactionCommitEvent): void {
    const runner = event.queryRunner;
    if (runner.isTransactionActive) return; // a savepoint: the outer transaction may still roll back
    const data = runner.data as Record<string, unknown>;
    const pending = pendingOf(data, false);
    delete data[PENDING];
    if (!pending?.length) return;
    const byUser = new Map<string, CreditsChangedEvent['changes']>();
    for (const { userId, ...change } of pending) byUser.set(userId, [...(byUser.get(userId) ?? []), change]);
    for (const [userId, changes] of byUser) {
      // after the commit, not awaited by it: a listener that fails is logged and undoes nothing
      const told = this.events
        .emitAsync(CREDITS_CHANGED_EVENT, { userId, changes } satisfies CreditsChangedEvent)
        .catch((err: unknown) =>
          this.logger.warn({ event: 'credits_changed_listener_failed', err }, 'a listener of credits.changed failed'),
        )
        .finally(() => this.running.delete(told));
      this.running.add(told);
    }
  }

  afterTransactionRollback(event: TransactionRollbackEvent): void {
    if (!event.queryRunner.isTransactionActive) delete (event.queryRunner.data as Record<string, unknown>)[PENDING];
  }

  async beforeApplicationShutdown(): Promise<void> {
    await Promise.allSettled([...this.running]);
  }
}

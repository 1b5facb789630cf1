import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { UserEntity } from '../users/user.entity';

/** Why an endpoint was switched off. */
export enum WebhookDisabledReason {
  /** every attempt failed for too long (WEBHOOK_DISABLE_AFTER): the person was mailed */
  Failing = 'failing',
}

/**
 * A developer's webhook endpoint (docs/api.md#webhooks): a URL that receives signed POSTs for the
 * events it subscribed to. The signing secret is kept encrypted (AES-256-GCM, the key derived from
 * AUTH_ENCRYPTION_KEY or the JWT secret): deliveries need it, and it is shown once, at creation.
 */
@Entity({ name: 'developer_webhook_endpoints' })
@Index('developer_webhook_endpoints_user_id_idx', ['userId', 'createdAt'])
export class WebhookEndpointEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'developer_webhook_endpoints_user_id_fkey' })
  user?: UserEntity;

  @Column({ type: 'varchar', length: 2048 })
  url: string;

  @Column({ type: 'text', array: true })
  events: string[];

  /** the signing secret, sealed (`v1.<iv>.<ciphertext>.<tag>`) */
  @Column({ name: 'secret_sealed', type: 'text' })
  secretSealed: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'disabled_at', type: 'timestamptz', nullable: true })
  disabledAt: Date | null;

  @Column({ name: 'disabled_reason', type: 'varchar', length: 32, nullable: true })
  disabledReason: WebhookDisabledReason | null;

  /** attempts in a row that failed (test events aside); 0 after a success */
  @Column({ name: 'consecutive_failures', type: 'integer', default: 0 })
  consecutiveFailures: number;

  /** when the first of those failures happened */
  @Column({ name: 'failing_since', type: 'timestamptz', nullable: true })
  failingSince: Date | null;
}

export enum WebhookDeliveryState {
  Pending = 'pending',
  Succeeded = 'succeeded',
  Failed = 'failed',
}

/**
 * One event for one endpoint, and its attempts: the body is kept as sent (each attempt signs it
 * anew with the time of the attempt), with the last attempt's outcome for the delivery log.
 * Deleted 30 days after it was made, and with its endpoint.
 */
@Entity({ name: 'developer_webhook_deliveries' })
@Index('developer_webhook_deliveries_endpoint_idx', ['endpointId', 'createdAt'])
@Index('developer_webhook_deliveries_due_idx', ['nextAttemptAt'], { where: `"state" = 'pending'` })
export class WebhookDeliveryEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'endpoint_id', type: 'uuid' })
  endpointId: string;

  @ManyToOne(() => WebhookEndpointEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'endpoint_id', foreignKeyConstraintName: 'developer_webhook_deliveries_endpoint_id_fkey' })
  endpoint?: WebhookEndpointEntity;

  /** the event's id (`id` of the body): the same for every endpoint it went to, and across retries */
  @Column({ name: 'event_id', type: 'uuid' })
  eventId: string;

  @Column({ name: 'event_type', type: 'varchar', length: 40 })
  eventType: string;

  /** the JSON body, byte for byte as each attempt sends it */
  @Column({ type: 'text' })
  body: string;

  @Column({ type: 'varchar', length: 16, default: WebhookDeliveryState.Pending })
  state: WebhookDeliveryState;

  /** attempts made so far */
  @Column({ type: 'integer', default: 0 })
  attempts: number;

  @Column({ name: 'next_attempt_at', type: 'timestamptz', nullable: true })
  nextAttemptAt: Date | null;

  @Column({ name: 'last_attempt_at', type: 'timestamptz', nullable: true })
  lastAttemptAt: Date | null;

  /** the HTTP status of the last attempt; null when none came (refused address, timeout, connection error) */
  @Column({ name: 'last_status', type: 'smallint', nullable: true })
  lastStatus: number | null;

  @Column({ name: 'last_duration_ms', type: 'integer', nullable: true })
  lastDurationMs: number | null;

  /** why the last attempt failed, in a few words (never the response body) */
  @Column({ name: 'last_error', type: 'varchar', length: 300, nullable: true })
  lastError: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}

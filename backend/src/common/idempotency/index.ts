export * from './idempotent.decorator';
export * from './idempotency.interceptor';
export * from './idempotency.service';
export * from './idempotency.module';
export { IdempotencyKeyEntity } from './idempotency-key.entity';

import { WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT, type WebhookEventType } from '@fitting-room/shared/developer-api';
import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsIn, IsString, MaxLength } from 'class-validator';
import { WebhookDeliveryState, WebhookDisabledReason } from '../developer-webhook.entities';

export const WebhookMessages = {
  events: `Choose one or more events among ${WEBHOOK_EVENT_TYPES.join(', ')}`,
  url: 'Give the URL of your endpoint (https://...)',
  tooMany: (max: number) => `You have ${max} webhook endpoints: delete one before adding another.`,
} as const;

/** POST /api/me/webhooks */
export class WebhookEndpointCreateDto {
  @ApiProperty({
    example: 'https://example.com/hooks/fitting-room',
    maxLength: 2048,
    description: 'https:// (http:// only for localhost, outside production); no private, loopback or reserved address in production',
  })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @IsString({ message: WebhookMessages.url })
  @MaxLength(2048, { message: WebhookMessages.url })
  url: string;

  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES, enumName: 'WebhookEventType', isArray: true, minItems: 1, example: ['generation.completed'] })
  @IsArray({ message: WebhookMessages.events })
  @ArrayMinSize(1, { message: WebhookMessages.events })
  @ArrayMaxSize(WEBHOOK_EVENT_TYPES.length, { message: WebhookMessages.events })
  @ArrayUnique({ message: WebhookMessages.events })
  @IsIn(WEBHOOK_EVENT_TYPES, { each: true, message: WebhookMessages.events })
  events: WebhookEventType[];
}

/** One delivery of an event to an endpoint, as the delivery log shows it. */
export class WebhookDeliveryDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ format: 'uuid', description: "the event's `id` (the same in every retry and for every endpoint)" })
  event_id: string;

  @ApiProperty({ enum: [...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT], example: 'generation.completed' })
  event_type: string;

  @ApiProperty({ enum: WebhookDeliveryState, enumName: 'WebhookDeliveryState', description: 'pending while retries remain' })
  state: WebhookDeliveryState;

  @ApiProperty({ type: 'integer', example: 1, description: 'attempts made so far' })
  attempts: number;

  @ApiProperty({ type: 'integer', nullable: true, example: 200, description: "the last attempt's HTTP status; null when no answer came" })
  last_status: number | null;

  @ApiProperty({ type: 'integer', nullable: true, example: 87, description: 'how long the last attempt took, ms' })
  last_duration_ms: number | null;

  @ApiProperty({ type: String, nullable: true, example: 'answered 500', description: 'why the last attempt failed' })
  last_error: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  last_attempt_at: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'when the next attempt is due (pending only)' })
  next_attempt_at: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at: string;
}

/** A webhook endpoint, with its latest deliveries (never its secret). */
export class WebhookEndpointDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: 'https://example.com/hooks/fitting-room' })
  url: string;

  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES, enumName: 'WebhookEventType', isArray: true })
  events: WebhookEventType[];

  @ApiProperty({ description: 'false once switched off for failing (a test event that gets through switches it on again)' })
  enabled: boolean;

  @ApiProperty({ type: String, enum: WebhookDisabledReason, nullable: true })
  disabled_reason: WebhookDisabledReason | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  disabled_at: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ type: [WebhookDeliveryDto], description: 'the latest deliveries, newest first (at most 20; kept 30 days)' })
  deliveries: WebhookDeliveryDto[];
}

/** What POST /api/me/webhooks answers: the signing secret, this once. */
export class WebhookEndpointCreatedDto extends WebhookEndpointDto {
  @ApiProperty({
    example: 'whsec_4vJ0bq9oXgU8mJ1sK2nq7dYcQ6tHwz3L5pRa0eFiBuM',
    description: "the signing secret: shown this once. Check each delivery's Fitting-Room-Signature with it (docs/api.md)",
  })
  secret: string;
}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { UsersModule } from '../users/users.module';
import { WebhookDeliveryEntity, WebhookEndpointEntity } from './developer-webhook.entities';
import { DeveloperWebhooksController } from './developer-webhooks.controller';
import { DeveloperWebhooksRepository } from './developer-webhooks.repository';
import { DeveloperWebhooksService } from './developer-webhooks.service';

/**
 * Webhooks for developers (docs/api.md#webhooks): Settings' routes (/api/me/webhooks), the events
 * they hear from the in-process bus, and the delivery jobs. The credits, queue and config are
 * global; the auth module imports this one for a take-over (the maker's endpoints go).
 */
@Module({
  imports: [TypeOrmModule.forFeature([WebhookEndpointEntity, WebhookDeliveryEntity]), UsersModule],
  controllers: [DeveloperWebhooksController],
  providers: [DeveloperWebhooksRepository, DeveloperWebhooksService],
  exports: [DeveloperWebhooksRepository],
})
export class DeveloperWebhooksModule {}

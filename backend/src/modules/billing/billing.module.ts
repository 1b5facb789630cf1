import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { type AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { UsersModule } from '../users/users.module';
import { BillingController, StripeWebhookController } from './billing.controller';
import { PaymentEntity, PurchaseEntity, StripeCustomerEntity, StripeEventEntity, SubscriptionEntity } from './billing.entities';
import { BillingRepository } from './billing.repository';
import { BillingService } from './billing.service';
import { StripeEventsController } from './stripe-events.controller';
import { StripeEventsService } from './stripe-events.service';
import { createStripeClient, STRIPE_CLIENT } from './stripe.client';

/** Payments through Stripe: checkout, the billing portal, the webhook and the console's Stripe events (docs/payments.md). */
@Module({
  imports: [
    TypeOrmModule.forFeature([StripeCustomerEntity, StripeEventEntity, SubscriptionEntity, PurchaseEntity, PaymentEntity]),
    UsersModule,
    NotificationsModule,
  ],
  controllers: [BillingController, StripeWebhookController, StripeEventsController],
  providers: [
    BillingRepository,
    BillingService,
    StripeEventsService,
    { provide: STRIPE_CLIENT, inject: [APP_CONFIG], useFactory: (config: AppConfig) => createStripeClient(config.stripe) },
  ],
  exports: [BillingService],
})
export class BillingModule {}

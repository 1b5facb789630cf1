import { IdempotencyKeyEntity } from '../common/idempotency/idempotency-key.entity';
import { AnalyticsEventEntity } from '../modules/analytics/analytics-event.entity';
import { UserActivityLogEntity } from '../modules/analytics/user-activity-log.entity';
import { ApiTokenEntity } from '../modules/api-tokens/api-token.entity';
import { AuditLogEntity } from '../modules/audit/audit-log.entity';
import { SessionEntity } from '../modules/auth/session.entity';
import { AuthTokenEntity } from '../modules/auth/tokens/auth-token.entity';
import { RecoveryCodeEntity } from '../modules/auth/two-factor/recovery-code.entity';
import {
  PaymentEntity,
  PurchaseEntity,
  StripeCustomerEntity,
  StripeEventEntity,
  SubscriptionEntity,
} from '../modules/billing/billing.entities';
import { CatalogSceneEntity, CatalogTemplateEntity, CatalogVersionEntity } from '../modules/catalog/store/catalog.entities';
import { CreditAccountEntity, CreditHoldEntity, CreditLedgerEntryEntity } from '../modules/credits/credit.entities';
import { WebhookDeliveryEntity, WebhookEndpointEntity } from '../modules/developer-webhooks/developer-webhook.entities';
import {
  FaceChallengeEntity,
  FaceCheckEventEntity,
  FaceConsentEntity,
  GenerationLikenessEntity,
  UploadFaceEntity,
} from '../modules/faces/face.entities';
import { GenerationEntity } from '../modules/generations/generation.entity';
import { ResultSignatureEntity } from '../modules/generations/result-signature.entity';
import { SafetyRefusalEntity } from '../modules/generations/safety-refusal.entity';
import { SystemNotificationEntity } from '../modules/notifications/system-notification.entity';
import { SupportInquiryEntity, SupportMessageEntity } from '../modules/support/support.entities';
import { UploadEntity } from '../modules/uploads/upload.entity';
import { UserSettingsEntity } from '../modules/users/user-settings.entity';
import { UserEntity } from '../modules/users/user.entity';

/** Every TypeORM entity of the app, listed once (no globs: the same list works under Jest and in dist). */
export const ENTITIES = [
  UserEntity,
  UserSettingsEntity,
  SessionEntity,
  AuthTokenEntity,
  RecoveryCodeEntity,
  UserActivityLogEntity,
  AnalyticsEventEntity,
  CreditAccountEntity,
  CreditLedgerEntryEntity,
  CreditHoldEntity,
  UploadEntity,
  GenerationEntity,
  ResultSignatureEntity,
  SafetyRefusalEntity,
  AuditLogEntity,
  SystemNotificationEntity,
  SupportInquiryEntity,
  SupportMessageEntity,
  CatalogTemplateEntity,
  CatalogSceneEntity,
  CatalogVersionEntity,
  StripeCustomerEntity,
  StripeEventEntity,
  SubscriptionEntity,
  PurchaseEntity,
  PaymentEntity,
  FaceConsentEntity,
  UploadFaceEntity,
  FaceChallengeEntity,
  FaceCheckEventEntity,
  GenerationLikenessEntity,
  ApiTokenEntity,
  IdempotencyKeyEntity,
  WebhookEndpointEntity,
  WebhookDeliveryEntity,
];

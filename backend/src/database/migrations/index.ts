import { Init1795273182371 } from './1795273182371-Init';
import { Accounts1795274586146 } from './1795274586146-Accounts';
import { CreditLedger1795275740213 } from './1795275740213-CreditLedger';
import { Generations1795277846347 } from './1795277846347-Generations';
import { AuditLog1795287359069 } from './1795287359069-AuditLog';
import { NotificationsSupport1795288036388 } from './1795288036388-NotificationsSupport';
import { AdminFromList1795294930707 } from './1795294930707-AdminFromList';
import { AccountTrust1795464295439 } from './1795464295439-AccountTrust';
import { SafetyAndSuspension1795467867092 } from './1795467867092-SafetyAndSuspension';
import { ResultPhash1795468441775 } from './1795468441775-ResultPhash';
import { ReportImageMatch1795469988359 } from './1795469988359-ReportImageMatch';
import { SessionPreviousToken1795470523853 } from './1795470523853-SessionPreviousToken';
import { UploadReceivedBytes1795472000000 } from './1795472000000-UploadReceivedBytes';
import { Catalogue1795480000000 } from './1795480000000-Catalogue';
import { Billing1795714205998 } from './1795714205998-Billing';
import { BillingPayments1795720000000 } from './1795720000000-BillingPayments';
import { TicketGenerationRemoved1795722228033 } from './1795722228033-TicketGenerationRemoved';
import { TemplateThumbnail1795723345107 } from './1795723345107-TemplateThumbnail';
import { GenerationsVersion1795900000000 } from './1795900000000-GenerationsVersion';
import { SessionRefreshCount1795950000000 } from './1795950000000-SessionRefreshCount';
import { VendorIdsAsText1796000000000 } from './1796000000000-VendorIdsAsText';
import { GenerationDeadline1796010000000 } from './1796010000000-GenerationDeadline';
import { ReportedImageMatching1796020000000 } from './1796020000000-ReportedImageMatching';
import { SessionRotatedAt1796030000000 } from './1796030000000-SessionRotatedAt';
import { TicketNumbers1796031000000 } from './1796031000000-TicketNumbers';
import { Faces1796040000000 } from './1796040000000-Faces';
import { ApiTokens1796050000000 } from './1796050000000-ApiTokens';
import { IdempotencyKeys1796051000000 } from './1796051000000-IdempotencyKeys';
import { DeveloperWebhooks1796052000000 } from './1796052000000-DeveloperWebhooks';
import type { MigrationInterface } from 'typeorm';

/** Every migration, in order. `npm run migration:generate -- <Name>` appends new ones here. */
export const MIGRATIONS: Array<new () => MigrationInterface> = [
  Init1795273182371,
  Accounts1795274586146,
  CreditLedger1795275740213,
  Generations1795277846347,
  AuditLog1795287359069,
  NotificationsSupport1795288036388,
  AdminFromList1795294930707,
  AccountTrust1795464295439,
  SafetyAndSuspension1795467867092,
  ResultPhash1795468441775,
  ReportImageMatch1795469988359,
  SessionPreviousToken1795470523853,
  UploadReceivedBytes1795472000000,
  Catalogue1795480000000,
  Billing1795714205998,
  BillingPayments1795720000000,
  TicketGenerationRemoved1795722228033,
  TemplateThumbnail1795723345107,
  GenerationsVersion1795900000000,
  SessionRefreshCount1795950000000,
  VendorIdsAsText1796000000000,
  GenerationDeadline1796010000000,
  ReportedImageMatching1796020000000,
  SessionRotatedAt1796030000000,
  TicketNumbers1796031000000,
  Faces1796040000000,
  ApiTokens1796050000000,
  IdempotencyKeys1796051000000,
  DeveloperWebhooks1796052000000,
];

import { Module } from '@nestjs/common';
import { AuthRepository } from '../auth/auth.repository';
import { RateLimitStorageModule } from '../auth/rate-limit/auth-rate-limit';
import { SessionsRepository } from '../auth/sessions.repository';
import { TwoFactorService } from '../auth/two-factor/two-factor.service';
import { UsersModule } from '../users/users.module';
import { AccountDeletionService } from './account-deletion.service';
import { AccountReauthService } from './account-reauth.service';
import { DataExportRepository } from './data-export.repository';
import { DataExportService } from './data-export.service';
import { PrivacyController } from './privacy.controller';
import { PrivacyRepository } from './privacy.repository';
import { UploadsRetentionJob } from './uploads-retention.job';

/**
 * Privacy: "Download my data" (GET /api/me/export, a ZIP), "Delete All My Data" (DELETE /api/me, after the person proved
 * again who they are) and the retention sweep that deletes photos
 * unused for UPLOAD_RETENTION_DAYS. Storage, queue and config are global.
 */
@Module({
  imports: [UsersModule, RateLimitStorageModule],
  controllers: [PrivacyController],
  providers: [
    PrivacyRepository,
    AccountDeletionService,
    UploadsRetentionJob,
    AccountReauthService,
    DataExportRepository,
    DataExportService,
    // stateless (the database connection and the config only), so they are provided here too: importing AuthModule
    // would make a cycle (AuthModule imports this module for the deletion of displaced accounts)
    AuthRepository,
    SessionsRepository,
    TwoFactorService,
  ],
  exports: [AccountDeletionService, PrivacyRepository],
})
export class PrivacyModule {}

import { Module } from '@nestjs/common';
import { AccountDeletionService } from './account-deletion.service';
import { PrivacyController } from './privacy.controller';
import { PrivacyRepository } from './privacy.repository';
import { UploadsRetentionJob } from './uploads-retention.job';

/**
 * Privacy: "Delete All My Data" (DELETE /api/me) and the retention sweep that deletes photos
 * unused for UPLOAD_RETENTION_DAYS. Storage, queue and config are global.
 */
@Module({
  controllers: [PrivacyController],
  providers: [PrivacyRepository, AccountDeletionService, UploadsRetentionJob],
  exports: [AccountDeletionService],
})
export class PrivacyModule {}

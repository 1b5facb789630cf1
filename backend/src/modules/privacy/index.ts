export { PrivacyModule } from './privacy.module';
export { AccountDeletionService, accountFilesPrefix, userIdHash } from './account-deletion.service';
export { UploadsRetentionJob, UPLOADS_RETENTION_BATCH, UPLOADS_RETENTION_EVERY_MS } from './uploads-retention.job';

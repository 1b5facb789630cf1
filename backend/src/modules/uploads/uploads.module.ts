import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RateLimitStorageModule } from '../auth/rate-limit/auth-rate-limit';
import { FacesModule } from '../faces/faces.module';
import { AiProviderModule } from '../generations/providers/ai-provider.module';
import { UploadQuotaService } from './upload-quota.service';
import { UploadEntity } from './upload.entity';
import { UploadsController } from './uploads.controller';
import { UploadsRepository } from './uploads.repository';
import { UploadsService } from './uploads.service';

/** Users' photos: POST/GET/DELETE /api/uploads and the quotas (GET /api/uploads/usage). Other modules read them through UploadsService. */
@Module({
  imports: [TypeOrmModule.forFeature([UploadEntity]), RateLimitStorageModule, AiProviderModule, FacesModule],
  controllers: [UploadsController],
  providers: [UploadsService, UploadQuotaService, UploadsRepository],
  exports: [UploadsService, UploadsRepository],
})
export class UploadsModule {}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { UploadEntity } from './upload.entity';
import { UploadsController } from './uploads.controller';
import { UploadsService } from './uploads.service';

/** Users' photos: POST/GET/DELETE /api/uploads. Other modules read them through UploadsService. */
@Module({
  imports: [TypeOrmModule.forFeature([UploadEntity])],
  controllers: [UploadsController],
  providers: [UploadsService],
  exports: [UploadsService],
})
export class UploadsModule {}

import { ApiProperty } from '@nestjs/swagger';
import type { UploadUsage } from '../upload-quota.service';

/** How much of my upload allowance I have used; every figure counts the bytes as received. */
export class UploadUsageDto implements UploadUsage {
  @ApiProperty({ type: 'integer', example: 7, description: 'photos accepted in the current hour' })
  photos_this_hour: number;

  @ApiProperty({ type: 'integer', example: 50, description: 'UPLOAD_QUOTA_PHOTOS_PER_HOUR' })
  photos_per_hour: number;

  @ApiProperty({ type: 'integer', example: 18_874_368 })
  bytes_this_hour: number;

  @ApiProperty({ type: 'integer', example: 52_428_800, description: 'UPLOAD_QUOTA_MB_PER_HOUR, in bytes' })
  bytes_per_hour: number;

  @ApiProperty({ type: 'integer', example: 104_857_600, description: 'the photos I keep (deleted 30 days after their last use)' })
  bytes_kept: number;

  @ApiProperty({ type: 'integer', example: 1_073_741_824, description: 'UPLOAD_QUOTA_MB_KEPT, in bytes' })
  bytes_kept_limit: number;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'when the hourly allowance starts again; null when nothing was uploaded this hour',
  })
  hour_resets_at: string | null;
}

import { ApiProperty } from '@nestjs/swagger';

/** One stored photo. `url` is a signed link that expires (SIGNED_URL_TTL_SECONDS, 15 minutes by default). */
export class UploadResponseDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({
    type: 'integer',
    example: 1536,
    description: 'pixels, after the orientation was applied and the long side capped at 2048',
  })
  width: number;

  @ApiProperty({ type: 'integer', example: 2048 })
  height: number;

  @ApiProperty({
    description:
      'signed link to the stored JPEG, host-relative (`/api/files/...`) with local storage, presigned on the bucket with S3; expires',
  })
  url: string;

  @ApiProperty({ format: 'date-time' })
  created_at: string;
}

export class UploadBatchResponseDto {
  @ApiProperty({ type: [UploadResponseDto] })
  uploads: UploadResponseDto[];
}

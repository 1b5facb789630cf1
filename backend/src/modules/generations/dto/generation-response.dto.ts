import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { GENERATION_TYPES } from '../../catalog';
import { GenerationStage, GenerationStatus } from '../generation.entity';

export class GenerationMetadataDto {
  @ApiProperty({ example: 'bikini-yellow' })
  outfit_id: string;

  @ApiProperty({ example: 'beach-standing', description: 'a scene id, or `custom`' })
  scene_id: string;

  @ApiProperty({ example: 'users/<user id>/uploads/<upload id>.jpg', description: 'the photo sent to the AI (private)' })
  upload_path: string;

  @ApiProperty({ type: [String], format: 'uuid' })
  upload_ids: string[];

  @ApiPropertyOptional({ description: 'the custom pose text, when one was used' })
  custom_pose?: string;
}

export class GenerationProgressStepDto {
  @ApiProperty({ enum: GenerationStage, enumName: 'GenerationStage' })
  stage: GenerationStage;

  @ApiProperty({ example: 'Creating generation record...' })
  message: string;
}

export class GenerationProgressDto {
  @ApiProperty({ enum: GenerationStage, enumName: 'GenerationStage' })
  stage: GenerationStage;

  @ApiProperty({
    example: 'Checking status (3/60)...',
    description: "the product's progress message of the stage (the failure reason once failed)",
  })
  message: string;

  @ApiProperty({ example: 3, description: 'the last status check (0 before the first)' })
  poll: number;

  @ApiProperty({ example: 60 })
  max_polls: number;

  @ApiProperty({
    type: [GenerationProgressStepDto],
    description:
      'the messages of every stage passed, in order, the current one last (a completed generation: each running stage, then Complete; ' +
      'a failed one: its failure): what the event stream sends, for a client that polls',
  })
  steps: GenerationProgressStepDto[];
}

/** The product's user_generations row as the owner sees it. */
export class GenerationResponseDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ format: 'uuid' })
  user_id: string;

  @ApiProperty({ enum: GENERATION_TYPES })
  type: 'image' | 'video';

  @ApiProperty({ enum: GenerationStatus, enumName: 'GenerationStatus' })
  status: GenerationStatus;

  @ApiProperty({ example: 1, description: 'credits: held while processing, charged once completed, released if it failed' })
  cost: number;

  @ApiProperty({ example: 'bikini' })
  category: string;

  @ApiProperty({ example: 'show the woman wearing ..., standing on a sunny sandy beach ...' })
  prompt: string;

  @ApiProperty({ type: GenerationMetadataDto })
  metadata: GenerationMetadataDto;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'signed link to the result (completed only), host-relative (`/api/files/...`) with local storage, presigned on the bucket with S3; expires (15 minutes by default)',
  })
  url: string | null;

  @ApiProperty({ type: GenerationProgressDto })
  progress: GenerationProgressDto;

  @ApiProperty({ type: String, nullable: true, example: null, description: 'why it failed (failed only)' })
  error: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  completed_at: string | null;
}

export class GenerationListResponseDto {
  @ApiProperty({ type: [GenerationResponseDto] })
  items: GenerationResponseDto[];

  @ApiProperty({ example: 42, description: 'completed generations matching the filter, over all pages' })
  total: number;

  @ApiProperty({ example: 1 })
  page: number;

  @ApiProperty({ example: 24 })
  page_size: number;
}

export class WebhookAckDto {
  @ApiProperty({ example: true })
  received: boolean;
}

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

  @ApiProperty({ example: 'Saving your request...' })
  message: string;
}

export class GenerationProgressDto {
  @ApiProperty({ enum: GenerationStage, enumName: 'GenerationStage' })
  stage: GenerationStage;

  @ApiProperty({
    example: 'Still working (3 of 23)...',
    description: "the product's progress message of the stage (the failure reason once failed)",
  })
  message: string;

  @ApiProperty({ type: 'integer', example: 3, description: 'the last status check (0 before the first)' })
  poll: number;

  @ApiProperty({
    type: 'integer',
    example: 23,
    description:
      "the status checks that fit in the generation's time budget, the last one at its deadline (23 for an image and 63 for a video " +
      'with the default settings); a result may come before, by a check or a webhook',
  })
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

  @ApiProperty({
    type: 'integer',
    example: 1,
    description: 'credits: held while processing, charged once completed, released if it failed',
  })
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
    example: 'Sunshine Triangle Bikini',
    description: "the outfit's name in the catalogue (an admin's rename shows); null when the catalogue no longer has it",
  })
  template_name: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'Beach Standing',
    description: "the pose's name in the catalogue, or `Custom pose` for a described one; null when the catalogue no longer has it",
  })
  scene_name: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'signed link to the result (completed only), host-relative (`/api/files/...`) with local storage, presigned on the bucket with S3; expires (15 minutes by default)',
  })
  url: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'signed, short-lived link to the photo of the person it was made from (the first one, sent to the AI), for a before/after view: ' +
      'only in `GET /api/generations/:id` of a completed generation, to its owner; null in lists and other answers, and once the photo was deleted',
  })
  source_photo_url: string | null;

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

  @ApiProperty({ type: 'integer', example: 42, description: 'completed generations matching the filter, over all pages' })
  total: number;

  @ApiProperty({ type: 'integer', example: 1 })
  page: number;

  @ApiProperty({ type: 'integer', example: 24 })
  page_size: number;
}

export class WebhookAckDto {
  @ApiProperty({ example: true })
  received: boolean;
}

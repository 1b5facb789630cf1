import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { GENERATION_TYPES, type GenerationType } from '../../catalog';
import { GENERATION_MESSAGES } from '../generation-progress';

/**
 * POST /api/generations. Presence rules ("at least one photo, a template, and a pose or a custom
 * prompt") are checked by the service, so that they answer the spec's one message.
 */
export class GenerationStartDto {
  @ApiProperty({ enum: GENERATION_TYPES, example: 'image' })
  @IsIn(GENERATION_TYPES as unknown as string[], { message: 'type must be image or video' })
  type: GenerationType;

  @ApiProperty({ example: 'bikini', description: 'a category id of GET /api/catalog' })
  @IsString()
  @MaxLength(64)
  category: string;

  @ApiPropertyOptional({ example: 'bikini-yellow' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  template_id?: string;

  @ApiPropertyOptional({ example: 'beach-standing', description: 'a scene of the category; or leave it out and send custom_pose' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  scene_id?: string;

  @ApiPropertyOptional({
    example: 'walking along the shore at sunset',
    description: 'the "+ Custom" pose: the user\'s own words, checked for safety (no nudity, sexual content, minors or other people)',
  })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  custom_pose?: string;

  @ApiProperty({ type: [String], format: 'uuid', minItems: 1, maxItems: 5, description: 'my uploads; the first one is sent to the AI' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(5, { message: GENERATION_MESSAGES.tooManyPhotos })
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  upload_ids?: string[];
}

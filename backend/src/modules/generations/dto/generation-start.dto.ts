import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsOptional, IsString, MaxLength } from 'class-validator';
import { GENERATION_MESSAGES } from '../generation-progress';
import { GenerationCheckDto } from './generation-check.dto';

/**
 * POST /api/generations. Presence rules ("at least one photo, a template, and a pose or a custom
 * prompt") are checked by the service, so that they answer the product's one message.
 */
export class GenerationStartDto extends GenerationCheckDto {
  @ApiProperty({ type: [String], format: 'uuid', minItems: 1, maxItems: 5, description: 'my uploads; the first one is sent to the AI' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(5, { message: GENERATION_MESSAGES.tooManyPhotos })
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  upload_ids?: string[];
}

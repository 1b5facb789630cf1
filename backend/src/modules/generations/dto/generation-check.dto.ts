import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { GENERATION_TYPES, type GenerationType } from '../../catalog';

/** POST /api/generations/check: a start's body without the photos. */
export class GenerationCheckDto {
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

  @ApiPropertyOptional({ example: 'walking along the shore at sunset', description: 'the "+ Custom" pose: the safety check runs on it' })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  custom_pose?: string;
}

/** What a start with this body would cost, and what the caller has. */
export class GenerationCheckResponseDto {
  @ApiProperty({ type: 'integer', example: 1, description: 'credits the generation would hold, and charge when its result is stored' })
  cost: number;

  @ApiProperty({ type: 'integer', example: 3, description: 'credits available now' })
  credits: number;

  @ApiProperty({ type: 'integer', example: 2, description: 'credits left after this generation' })
  credits_after: number;
}

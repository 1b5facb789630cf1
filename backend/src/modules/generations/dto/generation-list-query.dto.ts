import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { GENERATION_CATEGORIES } from '../../catalog';

export const GENERATIONS_PAGE_SIZE = { default: 24, max: 100 } as const;

export class GenerationListQueryDto {
  @ApiPropertyOptional({ enum: GENERATION_CATEGORIES, description: 'only this category' })
  @IsOptional()
  @IsIn(GENERATION_CATEGORIES as unknown as string[], { message: 'category must be a category id of the catalogue' })
  category?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100_000, default: 1 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100_000)
  page?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: GENERATIONS_PAGE_SIZE.max, default: GENERATIONS_PAGE_SIZE.default })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(GENERATIONS_PAGE_SIZE.max)
  page_size?: number;
}

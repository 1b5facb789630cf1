import { ApiProperty } from '@nestjs/swagger';

export class HealthIndicatorDto {
  @ApiProperty({ enum: ['up', 'down', 'degraded'] })
  status: 'up' | 'down' | 'degraded';
}

/** What renders generations (AI_PROVIDER): the user app says so when it is the local preview. */
export class AiModeDto {
  @ApiProperty({ example: 'preview', description: 'AI_PROVIDER: `preview` (local renderer, no AI), `dashscope` or `fashn`' })
  provider: string;

  @ApiProperty({
    example: false,
    description: 'false for the preview renderer: results are collages labelled "Preview, not AI-generated", not AI try-ons',
  })
  generates_with_ai: boolean;
}

export class HealthResponseDto {
  @ApiProperty({ enum: ['ok', 'error', 'shutting_down', 'degraded'], example: 'ok' })
  status: string;

  @ApiProperty({
    description: 'Checks that are up, by name (database, queue, storage)',
    type: 'object',
    additionalProperties: { $ref: '#/components/schemas/HealthIndicatorDto' },
  })
  info: Record<string, HealthIndicatorDto>;

  @ApiProperty({
    description: 'Checks that are down, by name',
    type: 'object',
    additionalProperties: { $ref: '#/components/schemas/HealthIndicatorDto' },
  })
  error: Record<string, HealthIndicatorDto>;

  @ApiProperty({
    description: 'Every check, by name',
    type: 'object',
    additionalProperties: { $ref: '#/components/schemas/HealthIndicatorDto' },
  })
  details: Record<string, HealthIndicatorDto>;

  @ApiProperty({ type: AiModeDto, description: 'What renders generations (answered when a check is down too)' })
  ai: AiModeDto;
}

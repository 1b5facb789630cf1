import { ApiProperty } from '@nestjs/swagger';

export class HealthIndicatorDto {
  @ApiProperty({ enum: ['up', 'down', 'degraded'] })
  status: 'up' | 'down' | 'degraded';
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
}

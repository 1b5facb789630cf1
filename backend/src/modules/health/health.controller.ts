import { Controller, Get, Inject, Res, ServiceUnavailableException } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, HealthIndicatorService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import type { Response } from 'express';
import { MessageQueueService } from '../../queue/message-queue.service';
import { STORAGE, StoragePort } from '../../storage/storage.port';
import { HealthIndicatorDto, HealthResponseDto } from './health-response.dto';

@ApiTags('health')
@ApiExtraModels(HealthIndicatorDto)
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly db: TypeOrmHealthIndicator,
    private readonly queue: MessageQueueService,
    @Inject(STORAGE) private readonly storage: StoragePort,
  ) {}

  @Get()
  @HealthCheck({ swaggerDocumentation: false })
  @ApiOperation({ summary: 'Liveness and readiness: database, queue and storage checks' })
  @ApiOkResponse({ type: HealthResponseDto })
  @ApiServiceUnavailableResponse({ type: HealthResponseDto, description: 'One or more checks are down' })
  async getHealth(@Res({ passthrough: true }) res: Response): Promise<HealthResponseDto> {
    try {
      return (await this.health.check([
        () => this.db.pingCheck('database').withTimeout(2000),
        () =>
          this.indicators
            .check('queue')
            .attempt(async () => {
              const result = await this.queue.check();
              if (!result.ok) throw new Error(result.detail ?? 'queue unavailable');
              return { driver: this.queue.kind, ...(result.detail ? { detail: result.detail } : {}) };
            })
            .withTimeout(2000),
        () =>
          this.indicators
            .check('storage')
            .attempt(async () => {
              await this.storage.check();
              return { driver: this.storage.kind };
            })
            .withTimeout(2000),
      ])) as HealthResponseDto;
    } catch (error) {
      // Keep terminus' detailed body (which check failed) rather than the generic error shape.
      if (error instanceof ServiceUnavailableException) {
        res.status(503);
        return error.getResponse() as HealthResponseDto;
      }
      throw error;
    }
  }
}

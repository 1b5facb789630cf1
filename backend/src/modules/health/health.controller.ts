import { Controller, Get, Inject, Res, ServiceUnavailableException } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import { DataSource } from 'typeorm';
import { answerWithin } from '../../common/concurrency/deadline';
import { MessageQueueService } from '../../queue/message-queue.service';
import { STORAGE, StoragePort } from '../../storage/storage.port';
import { AUTH_RATE_LIMIT_STORAGE } from '../auth/rate-limit/auth-rate-limit';
import { aiModeOf } from '../generations/ai-mode';
import { AI_PROVIDER, type AiProvider } from '../generations/providers/ai-provider';
import { HealthIndicatorDto, HealthResponseDto } from './health-response.dto';
import type { RateLimitStore } from '../auth/rate-limit/redis-throttler.storage';
import type { Response } from 'express';

/** How long each dependency has to answer a health check. */
const CHECK_LIMIT_MS = 2000;

@ApiTags('health')
@ApiExtraModels(HealthIndicatorDto)
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly dataSource: DataSource,
    private readonly queue: MessageQueueService,
    @Inject(STORAGE) private readonly storage: StoragePort,
    @Inject(AUTH_RATE_LIMIT_STORAGE) private readonly rateLimits: RateLimitStore,
    @Inject(AI_PROVIDER) private readonly provider: AiProvider,
  ) {}

  @Get()
  @HealthCheck({ swaggerDocumentation: false })
  @ApiOperation({
    summary: 'Every dependency: database, queue, storage, and where the rate limits are counted; and what renders generations',
    description:
      '503 when any check is down. `rate_limits` says `redis`, or `memory` while Redis does not answer (limits then hold per process). ' +
      '`ai` says which AI_PROVIDER renders generations and whether it is an AI at all (`preview` is not): the user app reads it to say that results are previews.',
  })
  @ApiOkResponse({ type: HealthResponseDto })
  @ApiServiceUnavailableResponse({ type: HealthResponseDto, description: 'One or more checks are down' })
  getHealth(@Res({ passthrough: true }) res: Response): Promise<HealthResponseDto> {
    return this.run(res, [this.database, this.queueCheck, this.storageCheck, this.rateLimitCheck]);
  }

  @Get('live')
  @ApiOperation({
    summary: 'Liveness: the process answers (restart it when this fails)',
    description:
      'Checks no dependency, so that an outage of the database or Redis does not get healthy processes restarted (GET /api/health/ready reports those).',
  })
  @ApiOkResponse({ schema: { example: { status: 'ok' } } })
  getLiveness(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  @HealthCheck({ swaggerDocumentation: false })
  @ApiOperation({
    summary: 'Readiness: the database and storage answer (send it traffic); the queue is reported but does not make it unready',
    description: 'Without Redis the API still serves everything but starting a generation (a fast 503), so it stays in rotation.',
  })
  @ApiOkResponse({ type: HealthResponseDto })
  @ApiServiceUnavailableResponse({ type: HealthResponseDto, description: 'The database or the storage is down' })
  getReadiness(@Res({ passthrough: true }) res: Response): Promise<HealthResponseDto> {
    return this.run(res, [this.database, this.storageCheck]);
  }

  /**
   * Each check gives its dependency 2 s. The limit counts the dependency's silence only: an answer
   * that arrived while this process was busy (a long task, a GC pause) is read before it is judged.
   */
  private readonly database = () =>
    this.indicators.check('database').attempt(async () => {
      await answerWithin(this.dataSource.query('SELECT 1'), CHECK_LIMIT_MS);
    });
  private readonly queueCheck = () =>
    this.indicators.check('queue').attempt(async () => {
      const result = await answerWithin(this.queue.check(), CHECK_LIMIT_MS);
      if (!result.ok) throw new Error(result.detail ?? 'queue unavailable');
      return { driver: this.queue.kind, ...(result.detail ? { detail: result.detail } : {}) };
    });
  private readonly storageCheck = () =>
    this.indicators.check('storage').attempt(async () => {
      await answerWithin(this.storage.check(), CHECK_LIMIT_MS);
      return { driver: this.storage.kind };
    });
  /** Always up: limits hold either way; it says where they are counted. */
  private readonly rateLimitCheck = () => this.indicators.check('rate_limits').up({ store: this.rateLimits.where() });

  /** The checks' report, with `ai` beside it. */
  private async run(res: Response, checks: Parameters<HealthCheckService['check']>[0]): Promise<HealthResponseDto> {
    const extra = { ai: aiModeOf(this.provider) };
    try {
      return { ...(await this.health.check(checks)), ...extra } as HealthResponseDto;
    } catch (error) {
      // Keep terminus' detailed body (which check failed) rather than the generic error shape.
      if (error instanceof ServiceUnavailableException) {
        res.status(503);
        return { ...(error.getResponse() as object), ...extra } as HealthResponseDto;
      }
      throw error;
    }
  }
}

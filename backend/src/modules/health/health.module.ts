import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { RateLimitStorageModule } from '../auth/rate-limit/auth-rate-limit';
import { GenerationsModule } from '../generations/generations.module';
import { HealthController } from './health.controller';

@Module({
  imports: [TerminusModule.forRoot({ logger: false }), RateLimitStorageModule, GenerationsModule],
  controllers: [HealthController],
})
export class HealthModule {}

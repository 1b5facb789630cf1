import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RateLimitStorageModule } from '../auth/rate-limit/auth-rate-limit';
import { UsersModule } from '../users/users.module';
import { AdminApiTokensController } from './admin-api-tokens.controller';
import { ApiTokenGate } from './api-token-gate';
import { ApiTokenEntity } from './api-token.entity';
import { ApiTokensController } from './api-tokens.controller';
import { ApiTokensRepository } from './api-tokens.repository';
import { ApiTokensService } from './api-tokens.service';

/**
 * Personal API tokens (docs/api.md): Settings' routes (/api/me/tokens), the console's (a user's
 * tokens), and ApiTokenGate, which the global AuthGuard (auth module, which imports this one) asks
 * about a bearer value with the `frk_` prefix. The audit trail is global.
 */
@Module({
  imports: [TypeOrmModule.forFeature([ApiTokenEntity]), UsersModule, RateLimitStorageModule],
  controllers: [ApiTokensController, AdminApiTokensController],
  providers: [ApiTokensRepository, ApiTokensService, ApiTokenGate],
  exports: [ApiTokensService, ApiTokenGate],
})
export class ApiTokensModule {}

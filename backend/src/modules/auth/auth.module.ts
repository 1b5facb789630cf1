import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { JwtModule } from '@nestjs/jwt';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AnalyticsModule } from '../analytics/analytics.module';
import { UsersModule } from '../users/users.module';
import { AuthController } from './auth.controller';
import { AuthGuard } from './auth.guard';
import { AuthService } from './auth.service';
import { GoogleOAuthService } from './google/google-oauth.service';
import { AuthRateLimitModule } from './rate-limit/auth-rate-limit';
import { SessionEntity } from './session.entity';
import { SessionsCleanupJob } from './sessions-cleanup.job';
import { SessionsService } from './sessions.service';

/** Sign-up, sign-in (email and Google), sessions, and the global guard behind @Authenticated(). */
@Module({
  imports: [TypeOrmModule.forFeature([SessionEntity]), JwtModule.register({}), UsersModule, AnalyticsModule, AuthRateLimitModule],
  controllers: [AuthController],
  providers: [AuthService, SessionsService, SessionsCleanupJob, GoogleOAuthService, { provide: APP_GUARD, useClass: AuthGuard }],
  exports: [SessionsService],
})
export class AuthModule {}

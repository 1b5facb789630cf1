import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { JwtModule } from '@nestjs/jwt';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AnalyticsModule } from '../analytics/analytics.module';
import { ApiTokensModule } from '../api-tokens/api-tokens.module';
import { DeveloperWebhooksModule } from '../developer-webhooks/developer-webhooks.module';
import { PrivacyModule } from '../privacy/privacy.module';
import { SupportRepository } from '../support/support.repository';
import { UsersModule } from '../users/users.module';
import { AccountMailService } from './account-mail.service';
import { AddressProofService } from './address-proof.service';
import { AuthController } from './auth.controller';
import { AuthGuard } from './auth.guard';
import { AuthRepository } from './auth.repository';
import { AuthService } from './auth.service';
import { GoogleOAuthService } from './google/google-oauth.service';
import { MeSecurityController } from './me-security.controller';
import { AuthRateLimitModule, RateLimitStorageModule } from './rate-limit/auth-rate-limit';
import { SignInThrottle } from './rate-limit/sign-in-throttle.service';
import { SessionEntity } from './session.entity';
import { SessionsCleanupJob } from './sessions-cleanup.job';
import { SessionsRepository } from './sessions.repository';
import { SessionsService } from './sessions.service';
import { AuthTokenEntity } from './tokens/auth-token.entity';
import { AuthTokensService } from './tokens/auth-tokens.service';
import { RecoveryCodeEntity } from './two-factor/recovery-code.entity';
import { TwoFactorService } from './two-factor/two-factor.service';

/**
 * Accounts and sign-in: sign-up, sign-in (email with optional two-factor, and Google), sessions,
 * email verification, password reset and change, two-factor, their security mail, and the global
 * guard behind @Authenticated().
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([SessionEntity, AuthTokenEntity, RecoveryCodeEntity]),
    JwtModule.register({}),
    UsersModule,
    AnalyticsModule,
    PrivacyModule,
    AuthRateLimitModule,
    RateLimitStorageModule,
    // the guard asks ApiTokenGate about personal API tokens; a reset or a take-over ends them, and a take-over the webhooks too
    ApiTokensModule,
    DeveloperWebhooksModule,
  ],
  controllers: [AuthController, MeSecurityController],
  providers: [
    AuthRepository,
    SessionsRepository,
    // stateless (the database connection only), so it is provided here too: importing SupportModule would make
    // a cycle (SupportModule imports AdminModule, which imports GenerationsModule, which imports this module)
    SupportRepository,
    AuthService,
    AddressProofService,
    SessionsService,
    SessionsRepository,
    SessionsCleanupJob,
    GoogleOAuthService,
    AuthTokensService,
    TwoFactorService,
    SignInThrottle,
    AccountMailService,
    { provide: APP_GUARD, useClass: AuthGuard },
  ],
  exports: [SessionsRepository, SessionsService, AuthService],
})
export class AuthModule {}

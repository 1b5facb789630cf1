import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AnalyticsModule } from '../analytics/analytics.module';
import { BillingStatusRepository } from '../billing/billing-status.repository';
import { GenerationsRepository } from '../generations/generations.repository';
import { AdminEmailsService } from './admin-emails.service';
import { FirstAdminService } from './first-admin.service';
import { MailPreferencesController } from './mail-preferences.controller';
import { MeController } from './me.controller';
import { MeService } from './me.service';
import { UserMailService } from './user-mail.service';
import { UserSettingsEntity } from './user-settings.entity';
import { UserSettingsService } from './user-settings.service';
import { UserEntity } from './user.entity';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';

@Module({
  imports: [TypeOrmModule.forFeature([UserEntity, UserSettingsEntity]), AnalyticsModule],
  controllers: [MeController, MailPreferencesController],
  providers: [
    UsersRepository,
    // stateless (the database connection only), so it is provided here too: importing GenerationsModule would
    // make a cycle (GenerationsModule imports AuthModule, which imports this module)
    GenerationsRepository,
    // the same for the billing state GET /api/me shows (the billing module imports this one)
    BillingStatusRepository,
    UsersService,
    UserSettingsService,
    MeService,
    FirstAdminService,
    AdminEmailsService,
    UserMailService,
  ],
  exports: [UsersRepository, UsersService, UserMailService],
})
export class UsersModule {}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AnalyticsModule } from '../analytics/analytics.module';
import { AdminEmailsService } from './admin-emails.service';
import { FirstAdminService } from './first-admin.service';
import { MailPreferencesController } from './mail-preferences.controller';
import { UserMailService } from './user-mail.service';
import { MeController } from './me.controller';
import { MeService } from './me.service';
import { UserSettingsEntity } from './user-settings.entity';
import { UserSettingsService } from './user-settings.service';
import { UserEntity } from './user.entity';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';

@Module({
  imports: [TypeOrmModule.forFeature([UserEntity, UserSettingsEntity]), AnalyticsModule],
  controllers: [MeController, MailPreferencesController],
  providers: [UsersService, UsersRepository, UserSettingsService, MeService, FirstAdminService, AdminEmailsService, UserMailService],
  exports: [UsersService, UsersRepository, UserMailService],
})
export class UsersModule {}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AnalyticsModule } from '../analytics/analytics.module';
import { AdminEmailsService } from './admin-emails.service';
import { FirstAdminService } from './first-admin.service';
import { MeController } from './me.controller';
import { MeService } from './me.service';
import { UserSettingsEntity } from './user-settings.entity';
import { UserSettingsService } from './user-settings.service';
import { UserEntity } from './user.entity';
import { UsersService } from './users.service';

@Module({
  imports: [TypeOrmModule.forFeature([UserEntity, UserSettingsEntity]), AnalyticsModule],
  controllers: [MeController],
  providers: [UsersService, UserSettingsService, MeService, FirstAdminService, AdminEmailsService],
  exports: [UsersService],
})
export class UsersModule {}

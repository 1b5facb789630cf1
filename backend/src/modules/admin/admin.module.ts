import { Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { CreditsModule } from '../credits/credits.module';
import { GenerationsModule } from '../generations/generations.module';
import { UploadsModule } from '../uploads/uploads.module';
import { UsersModule } from '../users/users.module';
import { AdminAuditService } from './admin-audit.service';
import { AdminGenerationsService } from './admin-generations.service';
import { AdminStatsService } from './admin-stats.service';
import { AdminUsersService } from './admin-users.service';
import { AdminController } from './admin.controller';
import { QueueBoardService } from './queue-board.service';

/** The console's API: stats, users (tier, credits), generations moderation, audit trail, queue monitor (JSON and Bull Board). */
@Module({
  imports: [CreditsModule, GenerationsModule, UploadsModule, UsersModule, JwtModule.register({})],
  controllers: [AdminController],
  providers: [AdminUsersService, AdminStatsService, AdminGenerationsService, AdminAuditService, QueueBoardService],
  exports: [AdminGenerationsService],
})
export class AdminModule {}

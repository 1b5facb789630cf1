import { Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { AuthModule } from '../auth/auth.module';
import { CreditsModule } from '../credits/credits.module';
import { FacesModule } from '../faces/faces.module';
import { GenerationsModule } from '../generations/generations.module';
import { UploadsModule } from '../uploads/uploads.module';
import { UsersModule } from '../users/users.module';
import { AdminAuditRepository } from './admin-audit.repository';
import { AdminAuditService } from './admin-audit.service';
import { AdminGenerationsRepository } from './admin-generations.repository';
import { AdminGenerationsService } from './admin-generations.service';
import { AdminPaymentsRepository } from './admin-payments.repository';
import { AdminPaymentsService } from './admin-payments.service';
import { AdminStatsRepository } from './admin-stats.repository';
import { AdminStatsService } from './admin-stats.service';
import { AdminUsersRepository } from './admin-users.repository';
import { AdminUsersService } from './admin-users.service';
import { AdminController } from './admin.controller';
import { QueueBoardService } from './queue-board.service';

/** The console's API: stats, users (tier, credits), generations moderation, payments and revenue, audit trail, queue monitor (JSON and Bull Board). */
@Module({
  imports: [AuthModule, CreditsModule, FacesModule, GenerationsModule, UploadsModule, UsersModule, JwtModule.register({})],
  controllers: [AdminController],
  providers: [
    AdminUsersRepository,
    AdminStatsRepository,
    AdminGenerationsRepository,
    AdminAuditRepository,
    AdminPaymentsRepository,
    AdminUsersService,
    AdminStatsService,
    AdminGenerationsService,
    AdminAuditService,
    AdminPaymentsService,
    QueueBoardService,
  ],
  exports: [AdminGenerationsService],
})
export class AdminModule {}

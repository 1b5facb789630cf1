import { Module } from '@nestjs/common';
import { GenerationsModule } from '../generations/generations.module';
import { NotificationsController } from './notifications.controller';
import { NotificationsRepository } from './notifications.repository';
import { NotificationsService } from './notifications.service';
import { SystemAlertsService } from './system-alerts.service';

/**
 * The admins' system notifications: the list and Mark Read in the console, notify() for the other
 * modules (support), and SystemAlertsService that raises them from the generations' events, OpsEvents and a scheduled job.
 */
@Module({
  imports: [GenerationsModule],
  controllers: [NotificationsController],
  providers: [NotificationsRepository, NotificationsService, SystemAlertsService],
  exports: [NotificationsService],
})
export class NotificationsModule {}

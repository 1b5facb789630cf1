import { Module } from '@nestjs/common';
import { NotificationsController } from './notifications.controller';
import { NotificationsService } from './notifications.service';
import { SystemAlertsService } from './system-alerts.service';

/**
 * The admins' system notifications: the list and Mark Read in the console, notify() for the other
 * modules (support), and SystemAlertsService that raises them from the generations' events, OpsEvents and a scheduled job.
 */
@Module({
  controllers: [NotificationsController],
  providers: [NotificationsService, SystemAlertsService],
  exports: [NotificationsService],
})
export class NotificationsModule {}

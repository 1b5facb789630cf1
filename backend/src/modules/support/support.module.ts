import { Module } from '@nestjs/common';
import { AdminModule } from '../admin/admin.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { SupportAdminController } from './support-admin.controller';
import { SupportMailer } from './support-mailer';
import { SupportController } from './support.controller';
import { SupportService } from './support.service';

/**
 * Support: the public contact form, the console's tickets (workflow, priority, replies mailed by a
 * queue job, internal notes) and, from an abuse report, removing the generation it names.
 */
@Module({
  imports: [NotificationsModule, AdminModule],
  controllers: [SupportController, SupportAdminController],
  providers: [SupportService, SupportMailer],
})
export class SupportModule {}

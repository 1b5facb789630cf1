import { Module } from '@nestjs/common';
import { AdminModule } from '../admin/admin.module';
import { GenerationsModule } from '../generations/generations.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { ReportedImageMatcher } from './reported-image.matcher';
import { SupportAdminController } from './support-admin.controller';
import { SupportController } from './support.controller';
import { SupportRepository } from './support.repository';
import { SupportService } from './support.service';

/**
 * Support: the public contact form, the console's tickets (workflow, priority, replies mailed by a
 * queue job, internal notes) and, from an abuse report, removing the generation it names.
 */
@Module({
  imports: [NotificationsModule, AdminModule, GenerationsModule],
  controllers: [SupportController, SupportAdminController],
  providers: [SupportRepository, SupportService, ReportedImageMatcher],
})
export class SupportModule {}

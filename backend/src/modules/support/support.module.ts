import { Module } from '@nestjs/common';
import { AdminModule } from '../admin/admin.module';
import { GenerationsModule } from '../generations/generations.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { MyTicketsController } from './my-tickets.controller';
import { ReportedImageJobs } from './reported-image.jobs';
import { ReportedImageMatcher } from './reported-image.matcher';
import { SupportAdminController } from './support-admin.controller';
import { SupportController } from './support.controller';
import { SupportRepository } from './support.repository';
import { SupportService } from './support.service';

/**
 * Support: the public contact form, the person's own tickets ("My tickets"), the console's tickets (workflow, priority, replies mailed by a
 * queue job, internal notes) and, from an abuse report, finding the generation it is about (the
 * copy kept beside its candidates) and removing it.
 */
@Module({
  imports: [NotificationsModule, AdminModule, GenerationsModule],
  controllers: [SupportController, SupportAdminController, MyTicketsController],
  providers: [SupportRepository, SupportService, ReportedImageMatcher, ReportedImageJobs],
})
export class SupportModule {}

import { Global, Module } from '@nestjs/common';
import { Mailer } from './mailer.service';
import { OutboxController } from './outbox.controller';
import { OutboxService } from './outbox.service';

/** Outgoing mail (SMTP or the outbox folder) and the console's Outbox page. Every module may send. */
@Global()
@Module({
  controllers: [OutboxController],
  providers: [Mailer, OutboxService],
  exports: [Mailer, OutboxService],
})
export class MailModule {}

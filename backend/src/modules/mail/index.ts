export { Mailer, type OutgoingMail, type MailDelivery } from './mailer.service';
export { MailTemplates, renderMail, type MailBrand, type MailContent } from './mail-templates';
export { OutboxService } from './outbox.service';

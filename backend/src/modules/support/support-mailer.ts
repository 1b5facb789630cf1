import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { createTransport } from 'nodemailer';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  replyTo?: string;
}

type Transport = ReturnType<typeof createTransport>;

/** Outgoing mail through SMTP (nodemailer), when SMTP_HOST is configured. */
@Injectable()
export class SupportMailer implements OnModuleDestroy {
  private transport?: Transport;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  get configured(): boolean {
    return !!this.config.smtp;
  }

  /** Hands the mail to the SMTP server; throws when it refuses or cannot be reached. */
  async send(mail: OutgoingMail): Promise<void> {
    const smtp = this.config.smtp;
    if (!smtp) throw new Error('SMTP is not configured');
    this.transport ??= createTransport({
      host: smtp.host,
      port: smtp.port,
      secure: smtp.secure,
      auth: smtp.user ? { user: smtp.user, pass: smtp.password } : undefined,
      connectionTimeout: 15_000,
      greetingTimeout: 15_000,
      socketTimeout: 30_000,
    });
    await this.transport.sendMail({ from: smtp.from, to: mail.to, subject: mail.subject, text: mail.text, replyTo: mail.replyTo });
  }

  onModuleDestroy(): void {
    this.transport?.close();
  }
}

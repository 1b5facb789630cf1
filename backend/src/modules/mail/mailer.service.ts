import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { createTransport } from 'nodemailer';
import { type AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { userIdHash } from '../privacy/personal-text';
import { type MailContent, type MailBrand, renderMail } from './mail-templates';
import { bareAddress, composeMime } from './mime';

/** One message to send: its recipient, content (a template's output) and mail-level options. */
export interface OutgoingMail {
  to: string;
  toName?: string;
  /** the template's name: the X-Template header and the outbox file name */
  template: string;
  content: MailContent;
  replyTo?: string;
  /** one-click unsubscribe (RFC 8058) for mail a person chose to get: the List-Unsubscribe header (a POST) */
  unsubscribeUrl?: string;
  /** the Unsubscribe link a person clicks in the message (a GET): the user app's page, which asks before it posts */
  unsubscribePageUrl?: string;
  /**
   * the id of the account the message is for: in the outbox its file name carries the account's
   * pseudonym, so that deleting the account deletes its mail (OutboxService.forget)
   */
  account?: string;
}

export type MailDelivery = { via: 'smtp' } | { via: 'outbox'; file: string };

type Transport = ReturnType<typeof createTransport>;

/** Outbox file names: `<time>-<sequence>-<template>[.<account pseudonym>].eml`, sorting oldest first. */
export const OUTBOX_FILE = /^[0-9TZ]+-[0-9a-f]+-[a-z0-9-]*(?:\.([0-9a-f]{16}))?\.eml$/i;

export function outboxFileName(stamp: string, template: string, account?: string): string {
  return `${stamp}-${template.replace(/[^a-z0-9-]/gi, '')}${account ? `.${userIdHash(account)}` : ''}.eml`;
}

/** The account pseudonym an outbox file name carries, if any. */
export function outboxFileAccount(name: string): string | undefined {
  return OUTBOX_FILE.exec(name)?.[1]?.toLowerCase();
}

/**
 * The one way mail leaves the product. With SMTP_HOST the message goes to that server; without
 * it the same RFC 5322 bytes are written to `$DATA_DIR/mail/<time>-<random>-<template>[.<account>].eml`
 * (names sort oldest first; `<account>`: the pseudonym of the account it is for) and the message's links are printed in the log, except in production,
 * so that a newcomer on `npm start` can follow a verification or reset link. The console's Outbox
 * page lists those files. Callers are queue jobs: a throw fails the attempt and the job retries.
 */
@Injectable()
export class Mailer implements OnModuleDestroy {
  private readonly logger = new Logger('Mailer');
  private transport?: Transport;
  private sequence = 0;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** The name, address and support contact that every message carries. */
  get brand(): MailBrand {
    return { appName: this.config.appName, appUrl: this.config.appUrl, supportEmail: this.config.contact.supportEmail };
  }

  get viaSmtp(): boolean {
    return !!this.config.smtp;
  }

  get outboxDir(): string {
    return this.config.mail.outboxDir;
  }

  private get from(): string {
    return this.config.smtp?.from ?? this.config.mail.from;
  }

  async deliver(mail: OutgoingMail): Promise<MailDelivery> {
    const rendered = renderMail(this.brand, mail.content, { unsubscribeUrl: mail.unsubscribePageUrl ?? mail.unsubscribeUrl });
    const raw = composeMime({
      from: this.from,
      to: mail.to,
      toName: mail.toName,
      subject: rendered.subject,
      text: rendered.text,
      html: rendered.html,
      replyTo: mail.replyTo,
      unsubscribeUrl: mail.unsubscribeUrl,
      template: mail.template,
    });
    if (this.config.smtp) {
      // the parts are 8bit UTF-8: declare it (BODY=8BITMIME, RFC 6152), as every current SMTP server supports
      const envelope = { from: bareAddress(this.from), to: [mail.to], use8BitMime: true };
      await this.smtp().sendMail({ envelope, raw });
      // never the address: logs carry no personal data
      this.logger.log({ event: 'mail_sent', template: mail.template }, 'mail sent');
      return { via: 'smtp' };
    }
    const file = await this.writeToOutbox(mail.template, raw, mail.account);
    const links = this.config.isProduction ? undefined : rendered.links;
    this.logger.log(
      { event: 'mail_written', template: mail.template, file, ...(links ? { links } : {}) },
      `mail "${rendered.subject}" written to ${file} (no SMTP_HOST)${links?.length ? `: ${links.join(' ')}` : ''}`,
    );
    return { via: 'outbox', file };
  }

  private smtp(): Transport {
    const smtp = this.config.smtp!;
    this.transport ??= createTransport({
      host: smtp.host,
      port: smtp.port,
      secure: smtp.secure,
      auth: smtp.user ? { user: smtp.user, pass: smtp.password } : undefined,
      connectionTimeout: 15_000,
      greetingTimeout: 15_000,
      socketTimeout: 30_000,
    });
    return this.transport;
  }

  /** Written to a temporary name and renamed, so a reader never sees half a message. */
  private async writeToOutbox(template: string, raw: string, account?: string): Promise<string> {
    const dir = this.outboxDir;
    await fs.mkdir(dir, { recursive: true, mode: 0o700 });
    const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('.', '');
    this.sequence = (this.sequence + 1) % 10_000;
    const name = outboxFileName(`${stamp}-${String(this.sequence).padStart(4, '0')}${randomBytes(3).toString('hex')}`, template, account);
    const file = path.join(dir, name);
    await fs.writeFile(`${file}.tmp`, raw, { mode: 0o600 });
    await fs.rename(`${file}.tmp`, file);
    return file;
  }

  onModuleDestroy(): void {
    this.transport?.close();
  }
}

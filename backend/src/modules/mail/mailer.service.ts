import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { createTransport } from 'nodemailer';
import { type AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { STORAGE, type StoragePort } from '../../storage';
import { userIdHash } from '../privacy/personal-text';
import { type MailContent, type MailBrand, renderMail } from './mail-templates';
import { bareAddress, composeMime } from './mime';
import { DirectoryOutbox, StorageOutbox, type OutboxStore } from './outbox-store';

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
 * it the same RFC 5322 bytes are kept in the outbox as `<time>-<random>-<template>[.<account>].eml`
 * (names sort oldest first; `<account>`: the pseudonym of the account it is for): in the S3 bucket
 * under `outbox/` when files are on S3 (every host reaches it), else under `$DATA_DIR/mail/`
 * (OutboxStore). The message's links are printed in the log, except in production, so that a
 * newcomer on `npm start` can follow a verification or reset link. The console's Outbox page lists
 * the outbox. Callers are queue jobs: a throw fails the attempt and the job retries.
 */
@Injectable()
export class Mailer implements OnModuleDestroy {
  private readonly logger = new Logger('Mailer');
  private transport?: Transport;
  private sequence = 0;
  /** where mail goes without SMTP: the bucket's `outbox/` with S3 file storage, else $DATA_DIR/mail */
  readonly outbox: OutboxStore;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(STORAGE) storage: StoragePort,
  ) {
    const s3 = config.storage.driver === 's3' ? config.storage.s3 : undefined;
    this.outbox = s3 ? new StorageOutbox(storage, `s3://${s3.bucket}/${StorageOutbox.PREFIX}`) : new DirectoryOutbox(config.mail.outboxDir);
  }

  /** The name, address and support contact that every message carries. */
  get brand(): MailBrand {
    return { appName: this.config.appName, appUrl: this.config.appUrl, supportEmail: this.config.contact.supportEmail };
  }

  get viaSmtp(): boolean {
    return !!this.config.smtp;
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

  /** Stored whole (a temporary file renamed, or one S3 PUT), so a reader never sees half a message. */
  private async writeToOutbox(template: string, raw: string, account?: string): Promise<string> {
    const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('.', '');
    this.sequence = (this.sequence + 1) % 10_000;
    const name = outboxFileName(`${stamp}-${String(this.sequence).padStart(4, '0')}${randomBytes(3).toString('hex')}`, template, account);
    return this.outbox.write(name, raw);
  }

  onModuleDestroy(): void {
    this.transport?.close();
  }
}

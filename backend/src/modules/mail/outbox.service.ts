import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../../common/errors';
import { userIdHash } from '../privacy/personal-text';
import { Mailer, OUTBOX_FILE, outboxFileAccount } from './mailer.service';
import { bareAddress, parseComposed } from './mime';

export interface OutboxMessage {
  /** the file name */
  id: string;
  to: string;
  subject: string;
  template: string;
  created_at: string;
  links: string[];
}

export interface OutboxMessageDetail extends OutboxMessage {
  text: string;
  html: string;
}

const FILE = OUTBOX_FILE;
const LINK = /https?:\/\/[^\s<>"']+/g;

/** Whether a text names an address: the whole address, not a longer one that ends or starts with it. */
function namesAddress(text: string, email: string): boolean {
  const escaped = email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![A-Za-z0-9._%+'-])${escaped}(?![A-Za-z0-9_-]|\\.[A-Za-z0-9])`, 'i').test(text);
}

/**
 * The console's view of the mail written without SMTP (the outbox: the bucket's `outbox/` or
 * $DATA_DIR/mail, Mailer.outbox), newest first; and its removal with the person it was for (forget()).
 */
@Injectable()
export class OutboxService {
  constructor(private readonly mailer: Mailer) {}

  get enabled(): boolean {
    return !this.mailer.viaSmtp;
  }

  async list(offset: number, limit: number): Promise<{ rows: OutboxMessage[]; total: number }> {
    const names = (await this.names()).sort().reverse();
    const page = names.slice(offset, offset + limit);
    const rows = await Promise.all(page.map(async (name) => this.summary(name, await this.read(name))));
    return { rows, total: names.length };
  }

  async get(id: string): Promise<OutboxMessageDetail> {
    if (!FILE.test(id)) throw new NotFoundError();
    const raw = await this.read(id);
    const parsed = parseComposed(raw);
    return { ...this.summary(id, raw), text: parsed.text, html: parsed.html };
  }

  /**
   * Deletes the outbox files of a deleted account: those written for it (their name carries its
   * pseudonym) and, when `wholeAddress`, every message to or naming its address (when nobody else
   * holds the address, the mailbox was theirs: support receipts, mail written before names carried
   * the account). Answers how many files went. Works with SMTP on too: files of before remain.
   */
  async forget(person: { userId: string; email: string; wholeAddress: boolean }): Promise<number> {
    const pseudonym = userIdHash(person.userId);
    const email = person.email.trim().toLowerCase();
    let removed = 0;
    for (const name of await this.names()) {
      let match = outboxFileAccount(name) === pseudonym;
      if (!match && person.wholeAddress && email) {
        const raw = await this.read(name).catch((error: unknown) => {
          if (error instanceof NotFoundError) return ''; // removed meanwhile
          throw error;
        });
        const { headers, text, html } = parseComposed(raw);
        match =
          bareAddress(headers['to'] ?? '').toLowerCase() === email ||
          namesAddress(headers['subject'] ?? '', email) ||
          namesAddress(text, email) ||
          namesAddress(html, email);
      }
      if (!match) continue;
      await this.mailer.outbox.remove(name);
      removed += 1;
    }
    return removed;
  }

  private summary(name: string, raw: string): OutboxMessage {
    const { headers, text } = parseComposed(raw);
    const created = new Date(headers['date'] ?? '');
    return {
      id: name,
      to: headers['to'] ?? '',
      subject: headers['subject'] ?? '',
      template: headers['x-template'] ?? '',
      created_at: (Number.isNaN(created.getTime()) ? new Date(0) : created).toISOString(),
      links: [...new Set(text.match(LINK) ?? [])],
    };
  }

  private async names(): Promise<string[]> {
    return (await this.mailer.outbox.names()).filter((n) => FILE.test(n));
  }

  private read(name: string): Promise<string> {
    return this.mailer.outbox.read(name);
  }
}

import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../../common/errors';
import { Mailer } from './mailer.service';
import { parseComposed } from './mime';

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

const FILE = /^[0-9TZ]+-[0-9a-f]+-[a-z0-9-]*\.eml$/i;
const LINK = /https?:\/\/[^\s<>"']+/g;

/** The console's view of the mail written without SMTP ($DATA_DIR/mail/*.eml), newest first. */
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
    try {
      return (await fs.readdir(this.mailer.outboxDir)).filter((n) => FILE.test(n));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  }

  private async read(name: string): Promise<string> {
    try {
      return await fs.readFile(path.join(this.mailer.outboxDir, name), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new NotFoundError();
      throw error;
    }
  }
}

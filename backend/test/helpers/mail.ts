import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseComposed } from '../../src/modules/mail/mime';
import { MessageQueueService } from '../../src/queue';
import type { INestApplicationContext } from '@nestjs/common';

/** A message the app wrote to its outbox ($DATA_DIR/mail) because no SMTP server is configured. */
export interface OutboxMail {
  file: string;
  raw: string;
  headers: Record<string, string>;
  text: string;
  html: string;
  /** every link of the text part */
  links: string[];
}

export function readOutbox(dir: string): OutboxMail[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.eml'))
    .sort()
    .map((name) => {
      const raw = fs.readFileSync(path.join(dir, name), 'utf8');
      const parsed = parseComposed(raw);
      return { file: name, raw, ...parsed, links: parsed.text.match(/https?:\/\/\S+/g) ?? [] };
    });
}

/**
 * Waits for the newest message to `to` (and of `template`, when given) that was not in `seen`,
 * as a queue job writes it moments after the request that asked for it.
 */
export async function waitForMail(
  dir: string,
  match: { to: string; template?: string; after?: string[] },
  timeoutMs = 15_000,
): Promise<OutboxMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = readOutbox(dir)
      .filter(
        (m) =>
          m.headers.to?.includes(match.to) &&
          (!match.template || m.headers['x-template'] === match.template) &&
          !match.after?.includes(m.file),
      )
      .pop();
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no ${match.template ?? ''} mail to ${match.to} in ${dir} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The files in the outbox now (to wait for a newer one). */
export function outboxFiles(dir: string): string[] {
  return readOutbox(dir).map((m) => m.file);
}

/** The link of a message that goes to `page` (e.g. '/verify-email'), and its token. */
export function linkTo(mail: OutboxMail, page: string): { url: string; token: string } {
  const url = mail.links.find((l) => new URL(l).pathname === page);
  if (!url) throw new Error(`no link to ${page} in mail ${mail.file}: ${mail.links.join(' ')}`);
  return { url, token: new URL(url).searchParams.get('token') ?? '' };
}

/**
 * Waits until the app's queues have no job waiting, running or delayed (checked twice in a row),
 * so that "no mail was sent" is asserted after the jobs that could have sent it have run.
 */
export async function waitForIdleQueues(app: INestApplicationContext, timeoutMs = 15_000): Promise<void> {
  const queue = app.get(MessageQueueService);
  const deadline = Date.now() + timeoutMs;
  let quiet = 0;
  while (quiet < 2) {
    const counts = await queue.countsByQueue();
    const busy = counts.some((q) => q.counts.waiting + q.counts.active + q.counts.delayed > 0);
    quiet = busy ? 0 : quiet + 1;
    if (Date.now() > deadline) throw new Error('the queues did not go idle');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

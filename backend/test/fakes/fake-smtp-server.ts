import * as net from 'node:net';
import type { AddressInfo } from 'node:net';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** whether MAIL FROM declared BODY=8BITMIME */
  eightBit?: boolean;
  /** the raw message (headers and body), dot-unstuffed */
  data: string;
}

/**
 * A tiny SMTP server on 127.0.0.1 that speaks just enough of RFC 5321 for nodemailer (EHLO, MAIL,
 * RCPT, DATA, RSET, NOOP, QUIT; no STARTTLS, no AUTH) and keeps every message it accepts. Like a
 * strict real server it refuses a message whose lines pass 998 characters (RFC 5322 2.1.1), that
 * lacks the From or Date header (RFC 5322 3.6), or that carries 8-bit bytes without BODY=8BITMIME
 * on MAIL FROM (RFC 6152).
 */
export class FakeSmtpServer {
  readonly received: ReceivedMail[] = [];
  private server?: net.Server;
  private readonly sockets = new Set<net.Socket>();

  async start(): Promise<number> {
    this.server = net.createServer((socket) => this.session(socket));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Why a strict server would refuse this message, or null. */
  private refusal(mail: ReceivedMail): string | null {
    const lines = mail.data.split('\r\n');
    if (lines.some((l) => Buffer.byteLength(l, 'utf8') > 998)) return '552 5.6.0 message has a line longer than 998 characters';
    const head = mail.data.split('\r\n\r\n')[0];
    if (!/^From:/im.test(head) || !/^Date:/im.test(head)) return '550 5.6.0 message lacks a From or Date header';
    if (/[^\p{ASCII}]/u.test(mail.data) && !mail.eightBit) return '554 5.6.1 8-bit content without BODY=8BITMIME';
    return null;
  }

  private session(socket: net.Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => undefined);
    let buffer = '';
    let inData = false;
    let mail: ReceivedMail = { from: '', to: [], data: '' };
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 fake-smtp ESMTP ready');
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end === -1) return;
          mail.data = buffer.slice(0, end).replace(/\r\n\.\./g, '\r\n.');
          buffer = buffer.slice(end + 5);
          inData = false;
          const refusal = this.refusal(mail);
          if (refusal) reply(refusal);
          else {
            this.received.push(mail);
            reply('250 2.0.0 queued');
          }
          mail = { from: '', to: [], data: '' };
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol === -1) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO') socket.write('250-fake-smtp greets you\r\n250-8BITMIME\r\n250 SMTPUTF8\r\n');
        else if (verb === 'HELO') reply('250 fake-smtp');
        else if (verb === 'MAIL') {
          mail.from = /<([^>]*)>/.exec(line)?.[1] ?? '';
          mail.eightBit = /\sBODY=8BITMIME/i.test(line);
          reply('250 2.1.0 ok');
        } else if (verb === 'RCPT') {
          mail.to.push(/<([^>]*)>/.exec(line)?.[1] ?? '');
          reply('250 2.1.5 ok');
        } else if (verb === 'DATA') {
          inData = true;
          reply('354 end with <CRLF>.<CRLF>');
        } else if (verb === 'RSET') {
          mail = { from: '', to: [], data: '' };
          reply('250 ok');
        } else if (verb === 'NOOP') reply('250 ok');
        else if (verb === 'QUIT') {
          reply('221 bye');
          socket.end();
          return;
        } else reply('502 5.5.2 command not implemented');
      }
    });
  }
}

import { randomBytes } from 'node:crypto';

/** A message ready to leave: who it is for, what it says (text and HTML), and the headers that matter. */
export interface ComposedMail {
  from: string;
  to: string;
  toName?: string;
  subject: string;
  text: string;
  html: string;
  replyTo?: string;
  /** RFC 8058 one-click unsubscribe: List-Unsubscribe and List-Unsubscribe-Post */
  unsubscribeUrl?: string;
  /** the template's name, in the X-Template header (and the outbox file name) */
  template: string;
  date?: Date;
  messageId?: string;
}

const CRLF = '\r\n';

/** Header values never carry a line break (header injection) or control characters. */
function clean(value: string): string {
  return (
    value
      .replace(/[\r\n\t\0]+/g, ' ')
      // eslint-disable-next-line no-control-regex -- control characters are what this removes
      .replace(/[\x00-\x1f\x7f]/g, '')
      .trim()
  );
}

/** RFC 2047 encoded-word when a value is not plain ASCII. */
function encodeWord(value: string): string {
  return /^[\x20-\x7e]*$/.test(value) ? value : `=?utf-8?B?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

/** `Name <address>` with the name quoted or encoded as RFC 5322 wants. */
export function formatAddress(address: string, name?: string): string {
  const addr = clean(address);
  const display = name ? clean(name) : '';
  if (!display) return addr;
  if (!/^[\x20-\x7e]*$/.test(display)) return `${encodeWord(display)} <${addr}>`;
  return `"${display.replace(/["\\]/g, '\\$&')}" <${addr}>`;
}

/** The bare address of `Name <address>` (or the address itself). */
export function bareAddress(value: string): string {
  return /<([^<>]+)>\s*$/.exec(value)?.[1]?.trim() ?? value.trim();
}

/** The display name of `Name <address>`, if any. */
function displayName(value: string): string | undefined {
  const match = /^\s*"?([^"<]*?)"?\s*<[^<>]+>\s*$/.exec(value);
  return match?.[1] ? match[1] : undefined;
}

/** Lines of at most 998 characters (RFC 5322 2.1.1), CRLF-terminated; long lines are cut at a space. */
function wrapLines(body: string): string {
  return body
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .flatMap((line) => {
      const out: string[] = [];
      let rest = line;
      while (rest.length > 900) {
        const cut = rest.lastIndexOf(' ', 900);
        const at = cut > 0 ? cut : 900;
        out.push(rest.slice(0, at));
        rest = rest.slice(cut > 0 ? at + 1 : at);
      }
      out.push(rest);
      return out;
    })
    .join(CRLF);
}

function rfc2822Date(date: Date): string {
  return date.toUTCString().replace(/GMT$/, '+0000');
}

/**
 * The message as RFC 5322 text: multipart/alternative with a plain-text and an HTML part, both
 * UTF-8 and 8bit (RFC 6152), so that links read verbatim in the .eml files of the outbox. The same
 * bytes go to the SMTP server.
 */
export function composeMime(mail: ComposedMail): string {
  const date = mail.date ?? new Date();
  const domain = bareAddress(mail.from).split('@')[1] || 'localhost';
  const messageId = mail.messageId ?? `<${randomBytes(12).toString('hex')}@${clean(domain)}>`;
  const boundary = `=_fr_${randomBytes(12).toString('hex')}`;
  const headers: Array<[string, string]> = [
    ['From', formatAddress(bareAddress(mail.from), displayName(mail.from))],
    ['To', formatAddress(mail.to, mail.toName)],
    ['Subject', encodeWord(clean(mail.subject))],
    ['Date', rfc2822Date(date)],
    ['Message-ID', messageId],
    ['MIME-Version', '1.0'],
    ['Auto-Submitted', 'auto-generated'],
    ['X-Template', clean(mail.template)],
  ];
  if (mail.replyTo) headers.push(['Reply-To', clean(mail.replyTo)]);
  if (mail.unsubscribeUrl) {
    headers.push(['List-Unsubscribe', `<${clean(mail.unsubscribeUrl)}>`]);
    headers.push(['List-Unsubscribe-Post', 'List-Unsubscribe=One-Click']);
  }
  headers.push(['Content-Type', `multipart/alternative; boundary="${boundary}"`]);
  const part = (type: string, body: string) =>
    [`--${boundary}`, `Content-Type: ${type}; charset=utf-8`, 'Content-Transfer-Encoding: 8bit', '', wrapLines(body)].join(CRLF);
  return [
    ...headers.map(([k, v]) => `${k}: ${v}`),
    '',
    'This is a multi-part message in MIME format.',
    part('text/plain', mail.text),
    part('text/html', mail.html),
    `--${boundary}--`,
    '',
  ].join(CRLF);
}

/** The headers and the text part of a message this module composed (for the console's outbox). */
export function parseComposed(raw: string): { headers: Record<string, string>; text: string; html: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = split === -1 ? raw : raw.slice(0, split);
  const body = split === -1 ? '' : raw.slice(split + 4);
  const headers: Record<string, string> = {};
  for (const line of head.split('\r\n')) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).toLowerCase()] = decodeWord(line.slice(i + 1).trim());
  }
  const boundary = /boundary="([^"]+)"/.exec(headers['content-type'] ?? '')?.[1];
  const parts = boundary ? body.split(`--${boundary}`) : [body];
  const partOf = (type: string) => {
    const found = parts.find((p) => new RegExp(`Content-Type: ${type}`, 'i').test(p));
    if (!found) return '';
    const start = found.indexOf('\r\n\r\n');
    return start === -1
      ? ''
      : found
          .slice(start + 4)
          .replace(/\r\n$/, '')
          .replace(/\r\n/g, '\n');
  };
  return { headers, text: partOf('text/plain'), html: partOf('text/html') };
}

function decodeWord(value: string): string {
  return value.replace(/=\?utf-8\?B\?([A-Za-z0-9+/=]+)\?=/gi, (_, b64: string) => Buffer.from(b64, 'base64').toString('utf8'));
}

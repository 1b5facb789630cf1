/**
 * Every mail the product sends, in one place: subject and content blocks per template, rendered to
 * a plain-text and an HTML part with one layout. Content is data (blocks), so a template cannot
 * forget to escape what a person typed. Its colours are the user app's (`@fitting-room/shared/brand`).
 */
import { BRAND_COLOURS as C } from '@fitting-room/shared/brand';

export interface MailBrand {
  appName: string;
  appUrl: string;
  supportEmail: string;
}

export type MailBlock =
  | { kind: 'p'; text: string }
  /** a call to action: a button in HTML, the bare link on its own line in text */
  | { kind: 'button'; label: string; url: string }
  /** a quoted block (a support reply, a message someone wrote) */
  | { kind: 'quote'; text: string }
  | { kind: 'small'; text: string };

export interface MailContent {
  subject: string;
  /** "Hi Ada," (omitted when the name is empty) */
  greeting?: string;
  blocks: MailBlock[];
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
  /** every link of the message, in order (printed in the log when there is no SMTP) */
  links: string[];
}

const p = (text: string): MailBlock => ({ kind: 'p', text });
const small = (text: string): MailBlock => ({ kind: 'small', text });
const button = (label: string, url: string): MailBlock => ({ kind: 'button', label, url });
const greet = (name: string | undefined) => (name?.trim() ? `Hi ${name.trim()},` : 'Hi,');

/** Hours and minutes, in words. */
function duration(minutes: number): string {
  if (minutes % 60 === 0) return minutes === 60 ? '1 hour' : `${minutes / 60} hours`;
  return `${minutes} minutes`;
}

/** A moment to the minute, in UTC: "2026-12-01 14:03 UTC". */
function utcMinute(at: Date): string {
  return `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export const MailTemplates = {
  verifyEmail: (b: MailBrand, v: { name?: string; url: string; ttlMinutes: number }): MailContent => ({
    subject: `Confirm your email address for ${b.appName}`,
    greeting: greet(v.name),
    blocks: [
      p(`Please confirm that this is your email address. Once it is confirmed you can upload photos and create try-ons in ${b.appName}.`),
      button('Confirm my email address', v.url),
      small(
        `The link works once and expires in ${duration(v.ttlMinutes)}. If you did not create an account, you can ignore this email: nothing happens without the link.`,
      ),
    ],
  }),

  signUpAttempt: (b: MailBrand, v: { name?: string; signInUrl: string; resetUrl: string; ttlMinutes?: number }): MailContent => ({
    subject: `Someone tried to create a ${b.appName} account with your email`,
    greeting: greet(v.name),
    blocks: [
      p(
        `Someone just tried to create a new ${b.appName} account with this email address. There is already an account with it, so we did not create another one and nobody was signed in.`,
      ),
      p('If it was you, sign in to your account instead. If you forgot your password, choose a new one.'),
      button('Sign in', v.signInUrl),
      button('Choose a new password', v.resetUrl),
      ...(v.ttlMinutes ? [small(`The password link works once and expires in ${duration(v.ttlMinutes)}.`)] : []),
      small('If it was not you, you do not need to do anything: your account and photos are unchanged.'),
    ],
  }),

  /**
   * Unconfirmed accounts made with this address were removed: because the address was proven (the
   * account that holds it is `confirmed`), or because a newer sign-up took the place of the oldest.
   * No name: the account's name may be a stranger's. With `setPasswordUrl`, the account that holds
   * the address starts afresh and its owner chooses a password.
   */
  signUpsRemoved: (
    b: MailBrand,
    v: { removed: Date[]; confirmed: boolean; signInUrl: string; setPasswordUrl?: string; ttlMinutes: number },
  ): MailContent => {
    const n = v.removed.length;
    const when = v.removed.map(utcMinute).join(', ');
    const them = n === 1 ? 'it' : 'them';
    const accounts = n === 1 ? `An account made with this address on ${when}` : `${n} accounts made with this address (on ${when})`;
    const blocks: MailBlock[] = [];
    if (v.confirmed) {
      blocks.push(
        p(
          `Your email address is now confirmed on your ${b.appName} account.` +
            (n ? ` ${accounts}, never confirmed, ${n === 1 ? 'was' : 'were'} removed with everything in ${them}.` : ''),
        ),
        p(
          `Whoever can read the mail of an address owns it. If you made ${n > 1 ? 'these accounts' : 'that account'} too, the account you confirmed is the one that remains. ` +
            `If you did not, someone else tried to sign up with your address: they have no way into your account.`,
        ),
      );
      if (v.setPasswordUrl) {
        blocks.push(
          p(
            'Because more than one sign-up with this address was waiting, we could not tell which password was yours, so your account starts afresh: without a password, two-factor or settings. Choose a password now.',
          ),
          button('Choose a password', v.setPasswordUrl),
          small(`The link works once and expires in ${duration(v.ttlMinutes)}. "Forgot password?" sends a new one.`),
        );
      } else {
        blocks.push(button('Sign in', v.signInUrl));
      }
    } else {
      blocks.push(
        p(
          `${accounts}, never confirmed, ${n === 1 ? 'was' : 'were'} removed with everything in ${them}: at most three sign-ups with one address wait for confirmation, and a newer one was made.`,
        ),
        p(
          'If you made it, open the confirmation link of your newest sign-up instead. If you did not sign up, someone is using your address: no such account can upload or create anything until the address is confirmed, so do not open their confirmation links.',
        ),
      );
    }
    const subject = v.confirmed
      ? `Your email is confirmed: ${n === 1 ? 'another sign-up' : 'other sign-ups'} with it ${n === 1 ? 'was' : 'were'} removed`
      : `${n === 1 ? 'An unconfirmed sign-up' : 'Unconfirmed sign-ups'} with your email ${n === 1 ? 'was' : 'were'} removed`;
    return { subject, greeting: greet(undefined), blocks };
  },

  passwordReset: (b: MailBrand, v: { name?: string; url: string; ttlMinutes: number }): MailContent => ({
    subject: `Reset your ${b.appName} password`,
    greeting: greet(v.name),
    blocks: [
      p(`We received a request to reset the password of your ${b.appName} account. Choose a new password with the link below.`),
      button('Choose a new password', v.url),
      small(
        `The link works once and expires in ${duration(v.ttlMinutes)}. Setting a new password signs you out everywhere. If you did not ask for this, ignore this email: your password stays as it is.`,
      ),
    ],
  }),

  passwordChanged: (b: MailBrand, v: { name?: string; resetUrl: string }): MailContent => ({
    subject: `Your ${b.appName} password was changed`,
    greeting: greet(v.name),
    blocks: [
      p(`The password of your ${b.appName} account was just changed, and every other device was signed out.`),
      p(`If you did this, there is nothing else to do. If you did not, reset your password now and write to ${b.supportEmail}.`),
      button('Reset my password', v.resetUrl),
    ],
  }),

  twoFactorChanged: (b: MailBrand, v: { name?: string; enabled: boolean; renewed?: boolean; settingsUrl: string }): MailContent => ({
    subject: v.renewed
      ? `New recovery codes for your ${b.appName} account`
      : v.enabled
        ? `Two-factor authentication is on for your ${b.appName} account`
        : `Two-factor authentication was turned off on your ${b.appName} account`,
    greeting: greet(v.name),
    blocks: [
      p(
        v.renewed
          ? 'A new set of two-factor recovery codes was just made for your account: the old ones no longer work. Keep the new ones somewhere safe; each one works once if you lose your phone.'
          : v.enabled
            ? 'Two-factor authentication is now on: signing in asks for a code from your authenticator app. Keep your recovery codes somewhere safe; each one works once if you lose your phone.'
            : 'Two-factor authentication was just turned off: signing in now needs only your password.',
      ),
      p(`If you did not do this, change your password at once and write to ${b.supportEmail}.`),
      button('Open my settings', v.settingsUrl),
    ],
  }),

  generationFinished: (
    b: MailBrand,
    v: { name?: string; type: 'image' | 'video'; completed: boolean; url: string; settingsUrl: string },
  ): MailContent => ({
    subject: v.completed ? `Your ${v.type} is ready` : `Your ${v.type} could not be created`,
    greeting: greet(v.name),
    blocks: [
      p(
        v.completed
          ? `Your try-on ${v.type} is ready in ${b.appName}.`
          : `We could not create your try-on ${v.type}. No credits were taken for it; you can try again with another photo or pose.`,
      ),
      button(v.completed ? `See my ${v.type}` : 'Open my generations', v.url),
      small(
        `You get this email because "Generation Notifications" is on. Turn it off in your settings (${v.settingsUrl}) or with the unsubscribe link.`,
      ),
    ],
  }),

  accountNotice: (b: MailBrand, v: { name?: string; title: string; lines: string[]; settingsUrl: string }): MailContent => ({
    subject: v.title,
    greeting: greet(v.name),
    blocks: [
      ...v.lines.map(p),
      small(
        `You get this email because "Email Notifications" is on. Turn it off in your settings (${v.settingsUrl}) or with the unsubscribe link.`,
      ),
    ],
  }),

  reportReceipt: (b: MailBrand, v: { name?: string; ticket: string; matched: boolean }): MailContent => ({
    subject: `We received your report (ticket ${v.ticket})`,
    greeting: greet(v.name),
    blocks: [
      p(
        `Thank you for telling us. Our safety team reviews every report of an image within 24 hours, and removes an image that must go, with the photo it was made from.`,
      ),
      p(
        v.matched
          ? 'We found the image you reported among the results we store.'
          : 'We could not match what you sent to an image we store yet; our team will look for it by hand.',
      ),
      p(`If you want to add anything, reply to this email. Your ticket number is ${v.ticket}.`),
      small(`${b.appName} safety team.`),
    ],
  }),

  /** The receipt of a question or a billing inquiry: it arrived, its number, when to expect an answer, where to follow it. */
  supportReceipt: (b: MailBrand, v: { name?: string; ticket: string; subject: string; ticketsUrl?: string }): MailContent => ({
    subject: `We received your message (ticket ${v.ticket})`,
    greeting: greet(v.name),
    blocks: [
      p(`Thank you for writing to us about "${v.subject}". Our support team answers within 24 to 48 hours.`),
      p(`Your ticket number is ${v.ticket}. To add anything, reply to this email.`),
      ...(v.ticketsUrl ? [button('See my tickets', v.ticketsUrl)] : []),
      small(`${b.appName} support.`),
    ],
  }),

  supportReply: (b: MailBrand, v: { name?: string; subject: string; body: string }): MailContent => ({
    subject: `Re: ${v.subject}`,
    greeting: greet(v.name),
    blocks: [{ kind: 'quote', text: v.body }, small(`${b.appName} support. Reply to this email to continue the conversation.`)],
  }),

  marketing: (b: MailBrand, v: { name?: string; subject: string; body: string; settingsUrl: string }): MailContent => ({
    subject: v.subject,
    greeting: greet(v.name),
    blocks: [
      ...v.body.split(/\n{2,}/).map((para) => p(para.trim())),
      small(
        `You get this email because you chose "Marketing Emails". Unsubscribe with one click below, or in your settings (${v.settingsUrl}).`,
      ),
    ],
  }),
} as const;

export type MailTemplateName = keyof typeof MailTemplates;

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** The one layout: text and HTML parts from the same blocks. */
export function renderMail(brand: MailBrand, content: MailContent, options: { unsubscribeUrl?: string } = {}): RenderedMail {
  const links: string[] = [];
  const text: string[] = [];
  const html: string[] = [];
  if (content.greeting) {
    text.push(content.greeting, '');
    html.push(`<p style="margin:0 0 16px">${escapeHtml(content.greeting)}</p>`);
  }
  for (const block of content.blocks) {
    if (block.kind === 'p') {
      text.push(block.text, '');
      html.push(`<p style="margin:0 0 16px">${escapeHtml(block.text).replace(/\n/g, '<br>')}</p>`);
    } else if (block.kind === 'small') {
      text.push(block.text, '');
      html.push(`<p style="margin:0 0 16px;font-size:13px;color:${C.muted}">${escapeHtml(block.text)}</p>`);
    } else if (block.kind === 'quote') {
      text.push(...block.text.split('\n'), '');
      html.push(
        `<blockquote style="margin:0 0 16px;padding:0 0 0 12px;border-left:3px solid ${C.border}">${escapeHtml(block.text).replace(/\n/g, '<br>')}</blockquote>`,
      );
    } else {
      links.push(block.url);
      text.push(`${block.label}:`, block.url, '');
      html.push(
        `<p style="margin:0 0 16px"><a href="${escapeHtml(block.url)}" style="display:inline-block;padding:10px 18px;border-radius:999px;background:${C.solid};color:${C.onSolid};text-decoration:none;font-weight:600">${escapeHtml(block.label)}</a></p>`,
      );
    }
  }
  text.push('--', `${brand.appName} · ${brand.appUrl}`);
  if (options.unsubscribeUrl) {
    links.push(options.unsubscribeUrl);
    text.push(`Unsubscribe: ${options.unsubscribeUrl}`);
  }
  const footer = `${escapeHtml(brand.appName)} · <a href="${escapeHtml(brand.appUrl)}" style="color:${C.muted}">${escapeHtml(brand.appUrl)}</a>${
    options.unsubscribeUrl ? ` · <a href="${escapeHtml(options.unsubscribeUrl)}" style="color:${C.muted}">Unsubscribe</a>` : ''
  }`;
  return {
    subject: content.subject,
    text: text.join('\n'),
    html: [
      '<!doctype html>',
      `<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(content.subject)}</title></head>`,
      `<body style="margin:0;padding:24px;background:${C.page};font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:${C.text};line-height:1.5">`,
      `<div style="max-width:560px;margin:0 auto;padding:24px;background:${C.panel};border-radius:12px;border:1px solid ${C.border}">`,
      `<p style="margin:0 0 20px;font-size:18px;font-weight:600;color:${C.fg}">${escapeHtml(brand.appName)}</p>`,
      ...html,
      `<p style="margin:24px 0 0;font-size:12px;color:${C.muted}">${footer}</p>`,
      '</div></body></html>',
    ].join('\n'),
    links,
  };
}

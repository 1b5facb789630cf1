import { createHmac, timingSafeEqual } from 'node:crypto';
import type { SettingsResponseDto } from './dto/settings-response.dto';

/** The kinds of mail a person chooses to get, and the setting that decides each. */
export const MAIL_CATEGORIES = {
  generation: { setting: 'generation_notifications', label: 'generation notifications' },
  account: { setting: 'email_notifications', label: 'account notices' },
  marketing: { setting: 'marketing_emails', label: 'marketing emails' },
} as const satisfies Record<string, { setting: keyof SettingsResponseDto; label: string }>;

export type MailCategory = keyof typeof MAIL_CATEGORIES;

/**
 * One-click unsubscribe tokens (RFC 8058): `<user id>.<category>.<HMAC>`, valid as long as the
 * account exists, so that the link of any mail works without signing in. They can only turn a
 * setting off.
 */
export class UnsubscribeTokens {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = createHmac('sha256', secret).update('fr-unsubscribe').digest();
  }

  sign(userId: string, category: MailCategory): string {
    return `${userId}.${category}.${this.mac(userId, category)}`;
  }

  verify(token: string): { userId: string; category: MailCategory } | null {
    if (typeof token !== 'string' || token.length > 200) return null;
    const [userId, category, mac, ...rest] = token.split('.');
    if (rest.length || !userId || !mac || !Object.hasOwn(MAIL_CATEGORIES, category)) return null;
    if (!/^[0-9a-f-]{36}$/i.test(userId)) return null;
    const expected = Buffer.from(this.mac(userId, category));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    return { userId, category: category as MailCategory };
  }

  private mac(userId: string, category: string): string {
    return createHmac('sha256', this.key).update(`${userId}:${category}`).digest('base64url').slice(0, 32);
  }
}

import { describe, expect, it } from 'vitest';
import { prerenderedDialog, prerenderedPath, PRERENDERED_PATHS } from './prerendered-paths';

describe('which requests are served a pre-rendered page', () => {
  it('the landing page, pricing and the legal pages, with or without unrelated search parameters', () => {
    expect(PRERENDERED_PATHS).toEqual(['/', '/pricing', '/terms', '/privacy', '/refund']);
    expect(prerenderedPath('/')).toBe('/');
    expect(prerenderedPath('/pricing')).toBe('/pricing');
    expect(prerenderedPath('/privacy?utm_source=mail')).toBe('/privacy');
    expect(prerenderedDialog('/')).toBeNull();
    expect(prerenderedDialog('/pricing?auth=login')).toBeNull();
  });

  it('Log in and Create account as the links name them: the landing page with that dialog open', () => {
    expect([prerenderedPath('/?auth=login'), prerenderedDialog('/?auth=login')]).toEqual(['/', 'login']);
    expect([prerenderedPath('/?auth=signup'), prerenderedDialog('/?auth=signup')]).toEqual(['/', 'signup']);
  });

  it('not the dialog’s other steps and parameters on the landing page, nor other screens', () => {
    for (const url of [
      '/?auth=forgot',
      '/?auth=2fa',
      '/?auth=signup&reason=demo',
      '/?auth=login&ended=session_revoked',
      '/?auth=login&utm_source=mail',
      '/?auth_error=google_failed',
      '/?auth=nonsense',
    ]) {
      expect({ url, path: prerenderedPath(url), dialog: prerenderedDialog(url) }).toEqual({ url, path: null, dialog: null });
    }
    expect(prerenderedPath('/dashboard/generations')).toBeNull();
    expect(prerenderedPath('/contact')).toBeNull();
    expect(prerenderedPath('/pricing/')).toBeNull();
  });
});

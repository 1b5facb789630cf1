import { describe, expect, it } from 'vitest';
import { prerenderedPath, PRERENDERED_PATHS } from './prerendered-paths';

describe('which requests are served a pre-rendered page', () => {
  it('the landing page, pricing and the legal pages, with or without unrelated search parameters', () => {
    expect(PRERENDERED_PATHS).toEqual(['/', '/pricing', '/terms', '/privacy', '/refund']);
    expect(prerenderedPath('/')).toBe('/');
    expect(prerenderedPath('/pricing')).toBe('/pricing');
    expect(prerenderedPath('/privacy?utm_source=mail')).toBe('/privacy');
  });

  it('not the auth dialog on the landing page, nor other screens', () => {
    expect(prerenderedPath('/?auth=login')).toBeNull();
    expect(prerenderedPath('/?auth_error=google_failed')).toBeNull();
    expect(prerenderedPath('/dashboard/generations')).toBeNull();
    expect(prerenderedPath('/contact')).toBeNull();
    expect(prerenderedPath('/pricing/')).toBeNull();
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseReturnTo, rememberReturnTo, takeReturnTo } from './return-to';

/** A tab's sessionStorage (the tests run in Node). */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, String(value)),
  };
}

describe('the way back to the console after signing in', () => {
  beforeEach(() => vi.stubGlobal('window', { sessionStorage: memoryStorage() }));
  afterEach(() => vi.unstubAllGlobals());

  it('takes console addresses only: never another site or another page of the app', () => {
    for (const ok of ['/admin', '/admin/', '/admin/users', '/admin/users/1f2e/show', '/admin?x=1', '/admin#/queues'])
      expect({ ok, path: parseReturnTo(ok) }).toEqual({ ok, path: ok });
    for (const bad of [
      null,
      '',
      'https://evil.example/admin',
      '//evil.example/admin',
      '/admin//evil.example',
      '/\\evil.example',
      '/admin/\\evil.example',
      '/administrator',
      '/dashboard',
      'admin',
      ' /admin',
      '/admin /x',
      'javascript:alert(1)',
    ])
      expect({ bad, path: parseReturnTo(bad) }).toEqual({ bad, path: null });
  });

  it('sends staff back once, and nobody else', () => {
    rememberReturnTo('/admin/users');
    expect(takeReturnTo('admin')).toBe('/admin/users');
    expect(takeReturnTo('admin')).toBeNull(); // used once

    rememberReturnTo('/admin/support-inquiries');
    expect(takeReturnTo('support')).toBe('/admin/support-inquiries');

    // a person who may not use the console stays in the app, and the address is gone
    rememberReturnTo('/admin');
    expect(takeReturnTo('user')).toBeNull();
    expect(takeReturnTo('admin')).toBeNull();
  });

  it('ignores an address that is not the console, and forgets one older than ten minutes', () => {
    rememberReturnTo('https://evil.example/admin');
    expect(takeReturnTo('admin')).toBeNull();
    const start = Date.now();
    rememberReturnTo('/admin');
    expect(takeReturnTo('admin', start + 11 * 60 * 1000)).toBeNull();
  });
});

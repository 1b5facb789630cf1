import { apiTokenHash, isWellFormedApiToken, looksLikeApiToken, newApiToken, SHOWN_LENGTH } from './api-token-format';

describe('personal API token format', () => {
  it('makes frk_ tokens of 40 characters whose checksum holds, each different, and keeps only their SHA-256', () => {
    const made = Array.from({ length: 200 }, () => newApiToken());
    for (const { token, hash, shown } of made) {
      expect(token).toMatch(/^frk_[0-9A-Za-z]{36}$/);
      expect(isWellFormedApiToken(token)).toBe(true);
      expect(hash).toBe(apiTokenHash(token));
      expect(hash).toMatch(/^[0-9a-f]{64}$/);
      expect(shown).toBe(token.slice(0, SHOWN_LENGTH));
      expect(shown).toHaveLength(8);
    }
    expect(new Set(made.map((m) => m.token)).size).toBe(200);
  });

  it('refuses a token with one character changed (the checksum a secret scanner checks offline)', () => {
    const { token } = newApiToken();
    let refused = 0;
    for (let i = 4; i < token.length; i++) {
      const c = token[i] === 'a' ? 'b' : 'a';
      if (!isWellFormedApiToken(token.slice(0, i) + c + token.slice(i + 1))) refused++;
    }
    expect(refused).toBe(token.length - 4);
  });

  it.each(['', 'frk_', 'frk_short', `frk_${'A'.repeat(36)}`, `ghp_${'A'.repeat(36)}`, 'eyJhbGciOiJIUzI1NiJ9.e30.x'])(
    'refuses %p as a token',
    (value) => expect(isWellFormedApiToken(value)).toBe(false),
  );

  it('tells a token from a session access token (a JWT) by its prefix', () => {
    expect(looksLikeApiToken(newApiToken().token)).toBe(true);
    expect(looksLikeApiToken('eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.sig')).toBe(false);
  });
});

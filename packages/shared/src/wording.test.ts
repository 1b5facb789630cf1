import { describe, expect, it } from 'vitest';
import { plural, pluralWord, withArticle } from './wording';

describe('counts and articles in texts people read', () => {
  it('says "1 credit" and "0 credits", "2 credits", and takes an irregular plural', () => {
    expect([0, 1, 2, 12].map((n) => plural(n, 'credit'))).toEqual(['0 credits', '1 credit', '2 credits', '12 credits']);
    expect(plural(1, 'day')).toBe('1 day');
    expect(plural(30, 'day')).toBe('30 days');
    expect(plural(1, 'entry', 'entries')).toBe('1 entry');
    expect(plural(3, 'entry', 'entries')).toBe('3 entries');
    expect(pluralWord(1, 'photo')).toBe('photo');
    expect(pluralWord(5, 'photo')).toBe('photos');
  });

  it('puts the article the word is spoken with', () => {
    expect(withArticle('image generation')).toBe('an image generation');
    expect(withArticle('video generation')).toBe('a video generation');
    expect(withArticle('generation')).toBe('a generation');
    expect(withArticle('abuse report')).toBe('an abuse report');
    expect(withArticle('hour')).toBe('an hour');
    expect(withArticle('user')).toBe('a user');
    expect(withArticle('one-off pack')).toBe('a one-off pack');
  });
});

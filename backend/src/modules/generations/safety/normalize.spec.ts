import { fold, foldKeepingCase, joinSpelledOut, normalizeForMatching, render, splitTokens, tokenize } from './normalize';

describe('custom pose normalisation', () => {
  it.each([
    ['NuDe', 'nude'],
    ['ｎｕｄｅ', 'nude'],
    ['𝐧𝐮𝐝𝐞', 'nude'],
    ['ⓝⓤⓓⓔ', 'nude'],
    ['nüdé', 'nude'],
    ['nud\u0435', 'nude'], // Cyrillic е
    ['ɴᴜᴅᴇ', 'nude'],
    ['nu\u200Bd\u00ADe', 'nude'],
    ['Straße', 'strasse'],
  ])('folds %j to %j', (input, expected) => {
    expect(fold(input)).toBe(expected);
  });

  it('keeps capitals in foldKeepingCase', () => {
    expect(foldKeepingCase('Émma Wätson\u200B')).toBe('Emma Watson');
  });

  it('reads leetspeak only inside words that hold a letter', () => {
    expect(render(tokenize(fold('s3x @ 15 n4k3d $lut 7een'), { leet: true }))).toBe('sex 15 naked slut teen');
    expect(render(tokenize(fold('s3x 15'), { leet: false }))).toBe('s3x 15');
  });

  it('keeps * as a mask only in words with two letters or more', () => {
    expect(render(tokenize(fold('n*de f* ***'), { leet: true }))).toBe('n*de f');
    expect(render(tokenize(fold('nude *** , heels'), { leet: true }))).toBe('nude , heels');
    // at most three stars, and no more stars than letters
    expect(render(tokenize(fold('f**k n***e nu****de'), { leet: true }))).toBe('f**k ne nude');
  });

  it('marks the pieces of one word, words, and clauses apart', () => {
    expect(render(tokenize(fold('na.ked top-less, nude  heels'), { leet: true }))).toBe('na-ked top-less , nude heels');
  });

  it('joins spelled-out letters and digits', () => {
    expect(render(joinSpelledOut(splitTokens(fold('N U D E on a b e a c h, 1 5 years'))))).toBe('nude on abeach , 15 years');
    expect(render(joinSpelledOut(splitTokens('a t-shirt')))).toBe('at-shirt');
    expect(render(joinSpelledOut(splitTokens('i m 1 5 s 3 x'), { mixed: false }))).toBe('im 15 s 3 x');
    expect(render(joinSpelledOut(splitTokens('i m 1 5 s 3 x'), { mixed: true }))).toBe('im15s3x');
  });

  it('gives every form of a text', () => {
    expect(normalizeForMatching('I\u2019m 1 5, s3xy')).toEqual({
      cased: 'I’m 1 5, s3xy',
      plain: 'i-m 1 5 , s3xy',
      leet: 'i-m 1 5 , sexy',
      joined: 'imis , sexy', // spelled-out letters and digits join, then read as leetspeak ("s 3 x")
      plainJoined: 'im 15 , s3xy',
    });
  });
});

import { describe, expect, it } from 'vitest';
import { appendPhrase, replaceWord } from './custom-pose-help';

describe('the custom pose help', () => {
  it('puts a suggestion in place of the word it was made for, keeping everything else as typed', () => {
    expect(replaceWord('Walking on the beahc at sunset', 'beahc', 'beach')).toBe('Walking on the beach at sunset');
    // the word as the API names it, in any case; only a whole word
    expect(replaceWord('Smokie eyes, smokie look', 'smokie', 'smoky')).toBe('smoky eyes, smokie look');
    expect(replaceWord('a beahcy look on the beahc', 'beahc', 'beach')).toBe('a beahcy look on the beach');
    expect(replaceWord('a hig-neck top', 'hig', 'high')).toBe('a high-neck top');
    // the word is gone already: nothing changes
    expect(replaceWord('walking on the beach', 'beahc', 'beach')).toBe('walking on the beach');
  });

  it('adds a building block at the end: after a space for a place or the light, after a comma for the rest', () => {
    expect(appendPhrase('', 'walking towards the camera', 'pose', 300)).toBe('walking towards the camera');
    expect(appendPhrase('walking towards the camera ', 'on the beach', 'place', 300)).toBe('walking towards the camera on the beach');
    expect(appendPhrase('walking on the beach', 'at sunset', 'light', 300)).toBe('walking on the beach at sunset');
    expect(appendPhrase('walking on the beach.', 'relaxed', 'mood', 300)).toBe('walking on the beach, relaxed');
    expect(appendPhrase('walking on the beach,', 'with sunglasses', 'props', 300)).toBe('walking on the beach, with sunglasses');
  });

  it('adds nothing that would make the text longer than the custom pose may be', () => {
    expect(appendPhrase('x'.repeat(290), 'at golden hour', 'light', 300)).toBeNull();
    expect(appendPhrase('x'.repeat(280), 'at sunset', 'light', 300)).toHaveLength(290);
  });
});

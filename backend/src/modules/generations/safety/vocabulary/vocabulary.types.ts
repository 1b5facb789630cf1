/**
 * The shape of the closed vocabulary of the custom-pose check (docs/safety.md). A custom pose is
 * allowed only when every word in it is one of these words (or an inflection the word's kind
 * allows), so a word that is not listed is refused: names, other languages, slang, misspellings.
 */

/** What a word is about; the context rules ask for these (e.g. "a garment straight after `no`"). */
export enum VocabularyTag {
  Function = 'function',
  /** the few number words that are allowed ("one leg", "two-piece", "a third"); ages are a rule */
  Number = 'number',
  Pose = 'pose',
  Activity = 'activity',
  Body = 'body',
  Expression = 'expression',
  Mood = 'mood',
  Descriptive = 'descriptive',
  /** who the user is in the picture: "woman", "model", "bride", "tourist" */
  Self = 'self',
  Place = 'place',
  /** a city, country, region or landmark (vocabulary/places.data.ts) */
  PlaceName = 'place_name',
  Room = 'room',
  Furniture = 'furniture',
  Nature = 'nature',
  Light = 'light',
  Weather = 'weather',
  Time = 'time',
  Event = 'event',
  Prop = 'prop',
  Food = 'food',
  Animal = 'animal',
  Plant = 'plant',
  Vehicle = 'vehicle',
  Colour = 'colour',
  Pattern = 'pattern',
  Material = 'material',
  /** clothing that covers the body: tops, bottoms, dresses, outerwear */
  Garment = 'garment',
  /** garments that are trousers, jeans, leggings or shorts (pulling them up is dressing) */
  Bottoms = 'bottoms',
  /** a part of a garment: sleeve, hem, hood, pocket (pulling down a sleeve is not undressing) */
  GarmentPart = 'garment_part',
  Underwear = 'underwear',
  Swimwear = 'swimwear',
  Sleepwear = 'sleepwear',
  Footwear = 'footwear',
  Accessory = 'accessory',
  Jewellery = 'jewellery',
  /** hair, make-up, nails */
  Beauty = 'beauty',
  Costume = 'costume',
  Photography = 'photography',
}

/**
 * How a word inflects, for the stemmer (stemmer.ts):
 * - `noun`: plural -s/-es/-ies/-ves and the possessive 's;
 * - `verb`: -s, -ed, -ing (with the silent e dropped and the final consonant doubled);
 * - `adjective`: -er, -est, -ly;
 * - `fixed`: only as written.
 * Irregular forms ("sat", "worn", "feet") are listed in irregular-forms.data.ts.
 */
export type WordKind = 'noun' | 'verb' | 'adjective' | 'fixed';

export interface VocabularyGroup {
  tag: VocabularyTag;
  kind: WordKind;
  words: readonly string[];
}

/** One group of the data files: a tag, a kind, and words apart by white space. */
export function group(tag: VocabularyTag, kind: WordKind, words: string): VocabularyGroup {
  return { tag, kind, words: words.split(/\s+/).filter(Boolean) };
}

/**
 * A fixed phrase of several words that is allowed as a whole, though one of its words is not
 * allowed alone ("child's pose", "baby blue", "los angeles"); written in lower case, words apart by
 * spaces, an apostrophe-s as in the text ("child's pose" also matches "childs pose").
 */
export interface VocabularyPhrase {
  tag: VocabularyTag;
  phrases: readonly string[];
}

/** Phrases apart by "|" (they contain spaces). */
export function phrases(tag: VocabularyTag, list: string): VocabularyPhrase {
  return {
    tag,
    phrases: list
      .split('|')
      .map((p) => p.trim().replace(/\s+/g, ' '))
      .filter(Boolean),
  };
}

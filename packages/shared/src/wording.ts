/**
 * Counts and articles in the texts people read (activity, banners, mails, notes): "1 credit",
 * "3 credits", "an image", "a video". One helper for every such text, so none says "1 credits" or
 * "a image".
 */

/** "1 credit", "0 credits", "3 credits"; `many` for a plural that is not singular + "s" ("1 photo", "2 photos"). */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** The word alone, in the form the count needs: "credit" for 1, "credits" otherwise. */
export function pluralWord(count: number, one: string, many = `${one}s`): string {
  return count === 1 ? one : many;
}

/** Words whose first letter is a vowel but whose first sound is not ("a user", "a one-off"). */
const CONSONANT_SOUND = /^(uni|use|usu|uti|eu|one\b|once\b)/i;
/** Words whose first letter is a consonant but whose first sound is a vowel ("an hour", "an honest"). */
const VOWEL_SOUND = /^(hour|honest|honou?r|heir)/i;

/** "an image", "a video", "an hour", "a user": the indefinite article the word is spoken with. */
export function withArticle(word: string): string {
  const vowel = VOWEL_SOUND.test(word) || (/^[aeiou]/i.test(word) && !CONSONANT_SOUND.test(word));
  return `${vowel ? 'an' : 'a'} ${word}`;
}

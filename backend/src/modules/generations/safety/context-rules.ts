import * as D from './context-rules.data';
import { SafetyReason } from './custom-pose-terms.data';
import { NAME_LIKE_WORDS } from './vocabulary/names.data';
import { PERSON_LIKE_PLACE_NAMES } from './vocabulary/places.data';
import { VocabularyTag as T } from './vocabulary/vocabulary.types';
import type { Finding } from './finding';
import type { Word } from './vocabulary-check';

/**
 * The context rules of the vocabulary check: a vocabulary word that turns harmful next to
 * another ("taking off" + a garment, "nothing" + "wearing", "little" + "girl", "with" + "Rose").
 * Numbers and ages have their own rule (numbers.ts). Each rule is a small pure function over the words of the text (their
 * lemmas and tags) that returns the index of the word it fired on, or null. The word sets are in
 * context-rules.data.ts; which words are garments comes from the vocabulary's tags.
 */
interface ContextRule {
  reason: SafetyReason;
  name: string;
  find: (ws: readonly Word[]) => number | null;
}

/** A test of the word at index i (with its neighbours at hand). */
type Test = (ws: readonly Word[], i: number) => boolean;

const R = SafetyReason;
const NAME_LIKE = new Set(NAME_LIKE_WORDS);
const PERSON_LIKE_PLACES = new Set(PERSON_LIKE_PLACE_NAMES);

function hasLemma(w: Word, set: ReadonlySet<string>): boolean {
  if (set.has(w.text)) return true;
  for (const l of w.lemmas) if (set.has(l)) return true;
  return false;
}
const inSet =
  (set: ReadonlySet<string>): Test =>
  (ws, i) =>
    hasLemma(ws[i], set);
const is = (...lemmas: string[]): Test => inSet(new Set(lemmas));
const tagged =
  (...tags: T[]): Test =>
  (ws, i) =>
    tags.some((t) => ws[i].tags.has(t));
const not =
  (t: Test): Test =>
  (ws, i) =>
    !t(ws, i);
const and =
  (...ts: Test[]): Test =>
  (ws, i) =>
    ts.every((t) => t(ws, i));
const or =
  (...ts: Test[]): Test =>
  (ws, i) =>
    ts.some((t) => t(ws, i));
const isText =
  (text: string): Test =>
  (ws, i) =>
    ws[i].text === text;
/** An inflected form ("opening", "tied", "changed"), not the bare word. */
const inflected: Test = (ws, i) => ws[i].lemmas.size > 1;

/** Clothing that covers the body (not shoes, accessories, jewellery or make-up). */
const clothing = tagged(T.Garment, T.Underwear, T.Swimwear, T.Sleepwear);
const determiner = inSet(D.DETERMINERS);

/** The index of the first word within `distance` after i (before i when negative), in the same sentence, that passes. */
function near(ws: readonly Word[], i: number, distance: number, t: Test): number | null {
  const step = distance < 0 ? -1 : 1;
  for (let k = 1; k <= Math.abs(distance); k++) {
    const j = i + k * step;
    if (j < 0 || j >= ws.length || ws[j].sentence !== ws[i].sentence) return null;
    if (t(ws, j)) return j;
  }
  return null;
}
/** The word has a word that passes `t` within `distance` after it (before it when negative). */
const withIn =
  (distance: number, t: Test): Test =>
  (ws, i) =>
    near(ws, i, distance, t) !== null;

/** The next word of the same sentence after i, skipping determiners ("a", "her", "my"...). */
function nextContent(ws: readonly Word[], i: number): number | null {
  for (let j = i + 1; j < ws.length && ws[j].sentence === ws[i].sentence; j++) if (!determiner(ws, j)) return j;
  return null;
}

/** The first index that passes `t`, or null. */
function first(ws: readonly Word[], t: Test): number | null {
  for (let i = 0; i < ws.length; i++) if (t(ws, i)) return i;
  return null;
}

/** `a`, with a word that passes `b` within `distance` after it (or, with `both`, before it too). */
const pair = (a: Test, distance: number, b: Test, both = true): Test =>
  and(a, or(withIn(distance, b), both ? withIn(-distance, b) : () => false));
/** `a`, and the next word that is not a determiner passes `b`. */
const followedBy =
  (a: Test, b: Test): Test =>
  (ws, i) => {
    if (!a(ws, i)) return false;
    const j = nextContent(ws, i);
    return j !== null && b(ws, j);
  };
/** `a`, and the very next word passes `b` (or, with `orEnd`, there is no next word in the sentence). */
const nextWord =
  (a: Test, b: Test, orEnd = false): Test =>
  (ws, i) => {
    if (!a(ws, i)) return false;
    const j = i + 1 < ws.length && ws[i + 1].sentence === ws[i].sentence ? i + 1 : null;
    return j === null ? orEnd : b(ws, j);
  };
/** `a`, and the next word that is neither a determiner nor passes `skip` passes `b` (at most five words on). */
const followedBySkipping =
  (a: Test, skip: Test, b: Test): Test =>
  (ws, i) => {
    if (!a(ws, i)) return false;
    for (let j = i + 1; j < ws.length && j <= i + 5 && ws[j].sentence === ws[i].sentence; j++) {
      if (determiner(ws, j) || skip(ws, j)) continue;
      return b(ws, j);
    }
    return false;
  };
/** `a`, and a word that passes `b` follows it with only determiners and words that pass `skip` between (at most five words on). */
const reachedThrough =
  (a: Test, skip: Test, b: Test): Test =>
  (ws, i) => {
    if (!a(ws, i)) return false;
    for (let j = i + 1; j < ws.length && j <= i + 5 && ws[j].sentence === ws[i].sentence; j++) {
      if (determiner(ws, j)) continue;
      if (b(ws, j)) return true;
      if (!skip(ws, j)) return false;
    }
    return false;
  };
/** Some word of the sentence of ws[i] passes `t`. */
const inSentence =
  (t: Test): Test =>
  (ws, i) =>
    ws.some((w, j) => w.sentence === ws[i].sentence && t(ws, j));
const rule = (reason: SafetyReason, name: string, t: Test): ContextRule => ({ reason, name, find: (ws) => first(ws, t) });

// ---------------------------------------------------------------------------------------------
// Names
// ---------------------------------------------------------------------------------------------

/** In Title Case or ALL CAPS text capitals mean nothing: the name rules then look at the words only. */
function capitalsMeanNames(ws: readonly Word[]): boolean {
  const words = ws.filter((w) => /\p{L}{3,}/u.test(w.typed));
  if (words.length === 0) return false;
  const allCaps = words.every((w) => w.typed === w.typed.toUpperCase());
  const capitalised = words.filter((w) => w.capitalised).length;
  return !allCaps && !(words.length >= 4 && capitalised / words.length >= 0.6);
}

const nameLike: Test = (ws, i) => NAME_LIKE.has(ws[i].text);
/** A word that is not a noun of a thing: a verb, an adjective, a function word ("Heard" in "Amber Heard"). */
const NOT_THINGS: ReadonlySet<T> = new Set([T.Pose, T.Mood, T.Descriptive, T.Function, T.Expression]);
const notAThing: Test = (ws, i) => [...ws[i].tags].every((t) => NOT_THINGS.has(t));
const placeOrTime: Test = (ws, i) => ws[i].tags.has(T.PlaceName) || ws[i].tags.has(T.Time) || ws[i].text === 'i';
/** After "with", "like", "as", "beside", "next to", "and"...: a word that puts a person beside the user. */
const after =
  (set: ReadonlySet<string>): Test =>
  (ws, i) =>
    i > 0 && (inSet(set)(ws, i - 1) || (ws[i - 1].text === 'to' && ws[i - 2]?.text === 'next'));
const afterPersonWord = after(D.PERSON_CONTEXT);
const midSentence: Test = (ws, i) => i > 0 && !ws[i].sentenceStart && !ws[i].joined && ws[i].known;

/**
 * "posing with Rose", "next to Will", "like paris", "Amber Heard": a first name that is also a
 * word, where it names a person. A place that is a first name (Paris, Sydney) only after such a
 * word, in any case; other name-like words only when capitalised.
 */
const namedPerson: Test = (ws, i) => {
  if (!midSentence(ws, i)) return false;
  if (PERSON_LIKE_PLACES.has(ws[i].text) && after(D.PERSON_CONTEXT_STRICT)(ws, i)) return true;
  if (!capitalsMeanNames(ws) || !ws[i].capitalised) return false;
  if (nameLike(ws, i) && afterPersonWord(ws, i)) return true;
  // a capitalised first name, then a capitalised word that is not a thing: "Amber Heard", "Jack Black" (not "Summer Dress", "Rose Gold")
  const prev = i - 1;
  return ws[prev].capitalised && nameLike(ws, prev) && !placeOrTime(ws, prev) && (nameLike(ws, i) || notAThing(ws, i));
};

/** "with a man", "next to a handsome guy", "and a woman", "pinned by a man": someone else in the picture. */
const withPerson: Test = (ws, i) => {
  if (!(inSet(D.PERSON_CONTEXT)(ws, i) || is('by')(ws, i)) || is('like', 'as')(ws, i)) return false;
  for (let j = i + 1; j < ws.length && j <= i + 4 && ws[j].sentence === ws[i].sentence; j++) {
    // "with a dancer's grace" is about the user
    if (inSet(D.PERSON_NOUNS)(ws, j)) return !ws[j].text.endsWith("'s");
    const describes = determiner(ws, j) || tagged(T.Mood, T.Descriptive, T.Number)(ws, j) || is('to', 'of', 'other', 'another')(ws, j);
    if (!describes) return false;
  }
  return false;
};

// ---------------------------------------------------------------------------------------------
// The rules
// ---------------------------------------------------------------------------------------------

const onlyWord = is('only', 'just', 'solely', 'merely');
/** What a person may not wear alone: a garment that is not a whole outfit, shoes, jewellery, a towel, a smile. */
const notAnOutfit = and(
  or(clothing, tagged(T.Footwear, T.Accessory, T.Jewellery, T.Beauty), inSet(D.ONLY_COVERS)),
  not(inSet(D.FULL_OUTFITS)),
);
/** Clothing on the body, not an outer layer: taking off a coat or going without a jacket is not undressing. */
const bodyClothing = and(clothing, not(inSet(D.OUTER_LAYERS)));
const upperClothing = and(bodyClothing, not(tagged(T.Bottoms)));
/** What is taken off in undressing: clothing (not a coat), a towel, a robe, a strap. */
const undressable = or(bodyClothing, inSet(D.UNDRESS_EXTRAS));
/** A word that only describes the next one: "sheer BLACK tights", "a SILK robe". */
const describing = and(tagged(T.Colour, T.Pattern, T.Material, T.Descriptive, T.Mood), not(clothing));
/** Lying on the front: "on my front", "on my stomach" (only for the raised hips: "on my front, feet in the air" is a beach pose). */
const prone = inSentence(
  (ws, i) => is('front', 'stomach', 'belly', 'tummy')(ws, i) && i >= 2 && is('on')(ws, i - 2) && determiner(ws, i - 1),
);
/** Lying down: on a bed or a sofa, or "on my back". */
const reclining = inSentence(
  or(inSet(D.RECLINING_CUES), (ws, i) => is('back')(ws, i) && i >= 2 && is('on')(ws, i - 2) && determiner(ws, i - 1)),
);
const undressVerbAnyForm = or(inSet(D.UNDRESS_VERBS_DIRECT), and(inSet(D.UNDRESS_VERBS_INFLECTED), inflected));
/** "lifting HER top", "lifting UP my shirt" (a "weight lifting top" is a garment) */
const undressVerb = and(
  or(inSet(D.UNDRESS_VERBS_DIRECT), and(inSet(D.UNDRESS_VERBS_INFLECTED), inflected)),
  nextWord(() => true, or(determiner, is('up', 'off', 'open'))),
);
/** "lifted", "dropped": a garment before it was acted on ("skirt lifted by the wind"). */
const pastParticiple: Test = (ws, i) => inflected(ws, i) && /(?:ed|en)$/.test(ws[i].text);

export const CONTEXT_RULES: readonly ContextRule[] = [
  // ----- minors -----
  rule(R.Minor, 'young + (not "woman")', nextWord(is('young'), not(inSet(D.YOUNG_HARMLESS)), true)),
  rule(R.Minor, 'little/small/petite + girl/body/one', followedBy(inSet(D.SMALL_WORDS), inSet(D.CHILD_LIKE_AFTER_SMALL))),
  rule(R.Minor, 'prom + an under-18 cue', (ws, i) => is('prom')(ws, i) && first(ws, inSet(D.PROM_UNDER_18_CUES)) !== null),
  rule(
    R.Minor,
    'a childish picture (pigtails + cute...)',
    (ws, i) =>
      inSet(D.CHILDISH_STRONG)(ws, i) && ws.filter((_, j) => or(inSet(D.CHILDISH_STRONG), inSet(D.CHILDISH_WEAK))(ws, j)).length >= 2,
  ),
  rule(
    R.Minor,
    'plaid skirt + knee socks/tie (a school uniform)',
    (ws, i) => followedBy(inSet(D.SCHOOL_SKIRT_PATTERNS), is('skirt'))(ws, i) && first(ws, inSet(D.SCHOOL_UNIFORM_PARTS)) !== null,
  ),
  // ----- sexual -----
  rule(R.Sexual, 'touching herself/her chest', pair(inSet(D.TOUCH_VERBS), 3, inSet(D.TOUCHED_PARTS), false)),
  rule(R.Sexual, 'biting her lip', pair(is('bite'), 3, is('lip'))),
  rule(R.Sexual, 'biting her finger where she lies', and(is('bite', 'suck', 'lick'), withIn(3, is('finger', 'thumb')), reclining)),
  rule(R.Sexual, 'arching her back where she lies', and(is('arch'), withIn(2, is('back')), reclining)),
  rule(R.Sexual, 'legs spread/open', pair(inSet(D.LEG_OPENERS), 2, inSet(D.LEG_WORDS))),
  rule(R.Sexual, 'spreading her (butt) cheeks', pair(inSet(D.CHEEK_SPREADERS), 2, inSet(D.BUTT_WORDS))),
  rule(R.Sexual, 'between her legs', pair(is('between'), 2, is('leg', 'thigh'), false)),
  rule(R.Sexual, 'bent over the bed/table', pair(and(is('bend'), withIn(1, is('over'))), 4, inSet(D.BENT_OVER_SURFACES), false)),
  // "bent at the waist over the arm of the sofa"
  rule(R.Sexual, 'bent over a piece of furniture', and(is('bend'), withIn(4, is('over')), inSentence(inSet(D.BENT_OVER_SURFACES)))),
  rule(R.Sexual, 'hips pushed back', and(inSet(D.HIP_WORDS), withIn(3, is('push', 'stick', 'pop')), withIn(4, is('back', 'out')))),
  rule(R.Sexual, 'feet by her ears where she lies', and(inSet(D.FEET_UP_WORDS), withIn(4, is('ear', 'head')), reclining)),
  rule(
    R.Sexual,
    'a leg up where she lies, in a short garment',
    and(inSet(D.LEG_WORDS), withIn(2, is('up', 'raise', 'lift', 'high')), reclining, inSentence(inSet(D.SHORT_OR_UNDER))),
  ),
  rule(
    R.Sexual,
    'kneeling on a bed, facing away or looking back',
    and(is('kneel'), reclining, inSentence(or(and(is('face'), withIn(1, is('away'))), and(is('look'), withIn(1, is('back')))))),
  ),
  rule(R.Sexual, 'bending over in a short skirt', and(is('bend'), withIn(1, is('over')), withIn(7, inSet(D.TINY_WORDS)))),
  rule(R.Sexual, 'bending over to show', and(is('bend'), withIn(1, is('over')), withIn(5, inSet(D.SHOW_VERBS)))),
  rule(R.Sexual, 'close-up of her chest', pair(inSet(D.CLOSE_UP_WORDS), 4, inSet(D.CLOSE_UP_PARTS))),
  rule(
    R.Sexual,
    'knees apart in a skirt',
    (ws, i) => and(is('knee', 'leg', 'thigh'), withIn(2, is('apart')))(ws, i) && first(ws, inSet(D.SHORT_OR_UNDER)) !== null,
  ),
  rule(R.Sexual, 'good/bad girl', nextWord(inSet(D.GOOD_BAD), inSet(D.GIRL_BOY))),
  rule(R.Sexual, 'hot girl/body', nextWord(is('hot'), inSet(D.HOT_PEOPLE))),
  rule(R.Sexual, 'sexy/wet body or curves', followedBy(inSet(D.SEXUAL_BODY_QUALIFIERS), inSet(D.SEXUAL_BODY_PARTS))),
  rule(R.Sexual, 'oiled body', pair(inSet(D.OIL_WORDS), 3, inSet(D.OIL_PARTS))),
  rule(
    R.Sexual,
    'a person covered in cream/chocolate',
    // the person is covered: a person word before "covered", or no thing before it ("covered in whipped cream on the bed")
    and(
      is('cover'),
      withIn(1, is('in', 'with')),
      withIn(3, inSet(D.FOOD_COVERS)),
      or(withIn(-4, inSet(D.PERSON_WORDS_NEAR_FOOD)), not(withIn(-3, (ws, j) => ws[j].kinds.has('noun') && !determiner(ws, j)))),
    ),
  ),
  rule(R.Sexual, 'close-up of feet', pair(inSet(D.FEET_WORDS), 4, inSet(D.FEET_FOCUS))),
  rule(R.Sexual, 'smelling socks', pair(is('smell', 'sniff'), 3, inSet(D.SMELLED_THINGS), false)),
  rule(R.Sexual, 'cream on her chest', and(inSet(D.FOOD_COVERS), withIn(2, is('on', 'over')), withIn(4, inSet(D.FOOD_ON_PARTS)))),
  rule(R.Sexual, 'tongue out', pair(is('tongue'), 2, inSet(D.TONGUE_MOVES))),
  rule(R.Sexual, 'on his lap', nextWord(is('his', 'him'), is('lap'))),
  rule(R.Sexual, 'collar and leash', (ws, i) => is('leash', 'chain', 'lead', 'neck')(ws, i) && first(ws, is('collar')) !== null),
  rule(
    R.Sexual,
    'on her knees on the bed',
    (ws, i) =>
      and(is('on'), withIn(2, is('knee')))(ws, i) && ws.some((w, j) => w.sentence === ws[i].sentence && inSet(D.KNEELING_CUES)(ws, j)),
  ),
  rule(
    R.Sexual,
    'tied up (not hair or a garment)',
    and(is('tie'), inflected, withIn(2, inSet(D.TIED_PARTICLES)), not(withIn(-3, or(inSet(D.TIED_HARMLESS), clothing)))),
  ),
  rule(R.Sexual, 'rope binding', pair(is('rope'), 3, inSet(D.ROPE_BINDING))),
  rule(R.Sexual, 'riding a man', followedBy(inSet(D.RIDE_VERBS), inSet(D.PERSON_NOUNS))),
  rule(
    R.Sexual,
    'on top (of him/her)',
    and(
      is('on'),
      withIn(1, is('top')),
      or(withIn(3, is('position')), and(not(withIn(2, is('of'))), withIn(-1, inSet(D.ON_TOP_SUBJECTS)), reclining), (ws, i) => {
        const of = near(ws, i, 2, is('of'));
        if (of === null) return false;
        const j = of + 1;
        if (j >= ws.length || ws[j].sentence !== ws[i].sentence) return false;
        if (inSet(D.PERSON_NOUNS)(ws, j) || is('him', 'them')(ws, j)) return true;
        // "on top of her" (her the person), not "on top of her suitcase"
        return (
          is('her')(ws, j) &&
          (j + 1 >= ws.length || ws[j + 1].sentence !== ws[i].sentence || !ws[j + 1].kinds.has('noun') || determiner(ws, j + 1))
        );
      }),
    ),
  ),
  rule(R.Sexual, 'legs apart where she lies', and(inSet(D.LEG_WORDS), withIn(3, inSet(D.LEGS_APART)), reclining)),
  rule(R.Sexual, 'legs in the air where she lies', and(inSet(D.LEG_WORDS), withIn(4, is('air')), reclining)),
  rule(
    R.Sexual,
    'hips raised where she lies',
    and(
      inSet(D.HIP_WORDS),
      or(withIn(3, inSet(D.RAISED)), withIn(-3, inSet(D.RAISED))),
      or(reclining, prone, inSentence(and(is('face'), withIn(1, is('down'))))),
    ),
  ),
  rule(R.Sexual, 'taking it from behind', and(inSet(D.TAKE_IT), withIn(1, is('it')), withIn(3, is('from')), withIn(4, is('behind')))),
  // ----- nudity -----
  rule(
    R.Nudity,
    'nothing + wearing/but/except/else',
    (ws, i) => is('nothing')(ws, i) && ws.some((w, j) => w.sentence === ws[i].sentence && j !== i && inSet(D.NOTHING_CUES)(ws, j)),
  ),
  rule(R.Nudity, 'nothing on / underneath', nextWord(is('nothing'), inSet(D.NOTHING_NEXT))),
  rule(
    R.Nudity,
    'no/without + garment',
    followedBySkipping(inSet(D.WITHOUT_WORDS), inSet(D.QUANTITY_WORDS), or(bodyClothing, inSet(D.CLOTHES_WORDS))),
  ),
  rule(R.Nudity, 'garment + free/less', nextWord(bodyClothing, is('free', 'less'))),
  rule(R.Nudity, 'free of clothes', and(inSet(D.FREE_OF), withIn(1, is('of')), withIn(3, or(bodyClothing, inSet(D.CLOTHES_WORDS))))),
  rule(R.Nudity, 'nothing up top / on top', and(is('nothing'), withIn(2, is('up', 'on')), withIn(3, inSet(D.NOTHING_TOP)))),
  rule(R.Nudity, 'not (wearing) the top', followedBySkipping(is('not'), is('wear'), upperClothing)),
  // "just the bikini bottoms", "only my swim bottoms"
  rule(
    R.Nudity,
    'only the bottoms',
    reachedThrough(onlyWord, or(describing, clothing, inSet(D.GARMENT_MODIFIERS)), inSet(D.BOTTOM_PIECES)),
  ),
  rule(R.Nudity, 'the bottoms only', nextWord(inSet(D.BOTTOM_PIECES), onlyWord)),
  rule(R.Nudity, 'the bottom half only', and(is('half'), withIn(-1, inSet(D.LOWER_HALF)), or(withIn(3, onlyWord), withIn(-4, onlyWord)))),
  rule(R.Nudity, 'half the bikini', followedBySkipping(is('half'), is('of'), or(bodyClothing, is('outfit', 'set')))),
  rule(
    R.Nudity,
    'hands as a bra',
    (ws, i) => followedBy(is('as'), inSet(D.WORN_AS))(ws, i) && near(ws, i, -3, inSet(D.COVER_STAND_INS)) !== null,
  ),
  rule(
    R.Nudity,
    'the light shining through it (a garment)',
    (ws, i) =>
      and(inSet(D.SHINE_THROUGH), withIn(3, is('through')))(ws, i) &&
      inSentence(clothing)(ws, i) &&
      (() => {
        const t = near(ws, i, 3, is('through'))!;
        const j = nextContent(ws, t);
        return j !== null && (inSet(D.SEEN_THROUGH_WHAT)(ws, j) || clothing(ws, j));
      })(),
  ),
  rule(
    R.Nudity,
    'clothes in a pile / beside me',
    or(
      and(inSet(D.CLOTHES_WORDS), or(withIn(4, inSet(D.PILE_WORDS)), withIn(-4, inSet(D.PILE_WORDS))), inSentence(inSet(D.SWIM_CUES))),
      and(inSet(D.CLOTHES_WORDS), withIn(4, and(inSet(D.BESIDE_WORDS), withIn(2, is('me', 'her', 'myself', 'herself'))))),
    ),
  ),
  rule(
    R.Nudity,
    'taking off / pulling down + garment',
    and(inSet(D.UNDRESS_VERBS_WITH_PARTICLE), withIn(4, inSet(D.UNDRESS_PARTICLES)), or(withIn(4, undressable), withIn(-3, undressable))),
  ),
  rule(
    R.Nudity,
    'lifting/opening/dropping + garment',
    or(
      and(undressVerb, withIn(3, or(upperClothing, inSet(D.UNDRESS_EXTRAS)))),
      and(undressVerbAnyForm, pastParticiple, withIn(-2, or(upperClothing, inSet(D.UNDRESS_EXTRAS)))),
    ),
  ),
  rule(R.Nudity, 'holding her top (not wearing it)', and(is('hold', 'carry', 'clutch'), withIn(3, inSet(D.HELD_TOPS)))),
  rule(R.Nudity, 'her top in her hand', and(inSet(D.HELD_TOPS), withIn(1, is('in')), withIn(3, is('hand')))),
  rule(
    R.Nudity,
    'top around her waist',
    or(
      and(inSet(D.WORN_TOPS), withIn(2, is('around', 'round')), withIn(4, inSet(D.WAIST_WORDS))),
      and(clothing, withIn(2, is('around', 'round')), withIn(4, inSet(D.ANKLE_WORDS))),
    ),
  ),
  rule(R.Nudity, 'instead of clothes', and(is('instead'), withIn(1, is('of')), withIn(4, clothing))),
  rule(
    R.Nudity,
    'clothes on the floor',
    or(
      and(is('clothes', 'clothing'), withIn(3, is('floor'))),
      and(or(clothing, is('towel')), withIn(2, inSet(D.FALL_VERBS)), withIn(6, inSet(D.FLOOR_WORDS))),
      // a top or swimwear lying on the ground, not worn ("in a bikini on the deck" is worn)
      and(
        or(inSet(D.HELD_TOPS), tagged(T.Underwear, T.Swimwear)),
        withIn(1, is('on')),
        withIn(3, inSet(D.GROUND_WORDS)),
        not(withIn(-3, is('in', 'wear'))),
      ),
    ),
  ),
  rule(R.Nudity, 'buttons popping open', and(is('button', 'zip', 'zipper', 'seam'), withIn(2, inSet(D.BUTTON_MOVES)))),
  // "knickers and a smile": a garment that is no outfit, and nothing but a smile
  rule(
    R.Nudity,
    'a garment and a smile',
    and(clothing, not(inSet(D.FULL_OUTFITS)), withIn(1, is('and')), withIn(3, isText('smile')), not(withIn(-3, clothing))),
  ),
  rule(
    R.Sexual,
    "on someone's lap",
    nextWord((ws, i) => /[a-z]'s?$/.test(ws[i].text) && ws[i].text.includes("'"), is('lap')),
  ),
  // the garment after the verb ("pulling up her skirt") or straight before it ("skirt riding up"), not "pajamas, knees pulled up"
  rule(
    R.Nudity,
    'pulling up + top/skirt',
    and(is('pull', 'ride', 'blow', 'fly', 'flip'), withIn(3, is('up')), or(withIn(4, upperClothing), withIn(-1, upperClothing))),
  ),
  rule(
    R.Nudity,
    'robe falling open',
    pair(clothing, 3, and(is('open'), withIn(-1, is('fall', 'hang', 'slip', 'blow', 'swing', 'wide', 'gape', 'fly'))), false),
  ),
  rule(
    R.Nudity,
    'stepping out of + garment',
    and(inSet(D.OUT_OF_VERBS), withIn(2, and(is('out'), withIn(1, is('of')))), withIn(5, clothing)),
  ),
  rule(R.Nudity, 'changing clothes', pair(and(is('change'), inflected), 3, inSet(D.CHANGED_CLOTHES), false)),
  // "a silk slip with thin straps": "slip" the garment (not inflected, after a word that describes it or a determiner) is no move
  rule(
    R.Nudity,
    'strap slipping',
    pair(
      is('strap'),
      3,
      or(
        inSet(D.STRAP_MOVES),
        and(
          inSet(D.STRAP_MOTIONS),
          not(and(isText('slip'), clothing)),
          or(withIn(3, inSet(D.STRAP_DIRECTIONS)), withIn(-4, inSet(D.STRAP_DIRECTIONS))),
        ),
      ),
    ),
  ),
  rule(
    R.Nudity,
    'sheer (clothing)',
    or(
      followedBySkipping(is('sheer'), describing, not(inSet(D.SHEER_HARMLESS))),
      nextWord(is('sheer'), () => false, true),
    ),
  ),
  rule(R.Nudity, 'clear + garment', pair(is('clear'), 2, clothing, false)),
  rule(R.Nudity, 'a tiny bikini/skirt', followedBy(is('tiny', 'micro'), inSet(D.SKIMPY_GARMENTS))),
  rule(R.Nudity, 'low-cut', and(is('low'), withIn(1, is('cut')))),
  rule(R.Nudity, 'wet + garment', pair(and(inSet(D.WET_WORDS), not(nextWord(() => true, inSet(D.WET_HARMLESS_NEXT)))), 4, clothing)),
  rule(R.Nudity, 'bare + (not feet/shoulders)', nextWord(is('bare'), not(inSet(D.BARE_HARMLESS)), true)),
  rule(R.Nudity, 'showing skin', pair(is('skin'), 2, inSet(D.SKIN_SHOWING))),
  rule(R.Nudity, 'showing everything', and(inSet(D.SHOW_VERBS), withIn(2, inSet(D.SHOWN_TOO_MUCH)))),
  rule(
    R.Nudity,
    'seeing through the dress',
    (ws, i) => and(is('see'), withIn(4, inSet(D.SEEN_THROUGH)))(ws, i) && first(ws, clothing) !== null,
  ),
  rule(
    R.Nudity,
    'pulling her dress over her head',
    and(inSet(D.OVER_HEAD_VERBS), withIn(3, clothing), withIn(6, is('over')), withIn(8, is('head'))),
  ),
  rule(R.Nudity, 'showing off body/curves', pair(is('show', 'flaunt'), 3, inSet(D.SHOW_OFF_PARTS), false)),
  rule(
    R.Nudity,
    'wrapped in a towel / under the sheets',
    pair(or(inSet(D.WRAP_VERBS), is('in', 'under', 'between', 'wear')), 2, inSet(D.WRAP_COVERS), false),
  ),
  rule(R.Nudity, 'covering her chest', pair(inSet(D.COVER_VERBS), 3, inSet(D.COVERED_PARTS), false)),
  rule(R.Nudity, 'covered by her hair', and(is('cover'), withIn(2, is('by', 'with', 'only', 'just')), withIn(5, inSet(D.COVERED_BY)))),
  rule(
    R.Nudity,
    'hair or hands over her chest',
    and(is('over', 'across', 'cover', 'hide'), withIn(-3, inSet(D.CHEST_COVERS)), withIn(3, inSet(D.COVERED_CHEST))),
  ),
  // make-up is no outfit only where it is worn: "wearing just lipstick", not "a fresh face with just mascara"
  rule(
    R.Nudity,
    'only/just + something that is not an outfit',
    and(
      followedBy(onlyWord, notAnOutfit),
      (ws, i) => !tagged(T.Beauty)(ws, nextContent(ws, i)!) || near(ws, i, -2, is('wear', 'in', 'dress')) !== null,
    ),
  ),
  rule(R.Nudity, 'something that is not an outfit + only', nextWord(notAnOutfit, onlyWord)),
  rule(R.Nudity, 'wearing foam/petals/a towel', followedBy(is('wear'), inSet(D.WEAR_NOT_CLOTHES))),
  // ----- other people -----
  rule(R.OtherPerson, 'a first name beside the user', namedPerson),
  rule(R.OtherPerson, 'him/us/we', inSet(D.OTHER_PEOPLE_PRONOUNS)),
  rule(R.OtherPerson, 'his + a part of the body', nextWord(is('his'), tagged(T.Body))),
  rule(
    R.OtherPerson,
    "a man's face, a guy's legs",
    nextWord((ws, i) => ws[i].text.endsWith("'s") && inSet(D.PERSON_NOUNS)(ws, i), tagged(T.Body)),
  ),
  rule(
    R.OtherPerson,
    'the girl from my street',
    and(inSet(D.PERSON_NOUNS), (ws, i) => {
      const from = near(ws, i, 4, is('from'));
      return from !== null && from + 1 < ws.length && is('my', 'our', 'his', 'your', 'their')(ws, from + 1);
    }),
  ),
  rule(R.OtherPerson, 'with/next to + a person', withPerson),
  rule(
    R.OtherPerson,
    'the girl in this photo',
    (ws, i) => i + 1 < ws.length && inSet(D.PERSON_NOUNS)(ws, i) && followedBy(is('in', 'from', 'on'), inSet(D.PICTURE_WORDS))(ws, i + 1),
  ),
  // ----- self-harm and violence -----
  rule(R.SelfHarm, 'cutting wrists', pair(is('cut'), 5, inSet(D.CUT_TARGETS), false)),
  rule(R.SelfHarm, 'hanging from a rope', pair(is('hang'), 4, inSet(D.HANG_TARGETS), false)),
  // "hanging from a tree" (not upside down from a branch, nor a swing, lights or a hammock in it)
  rule(
    R.SelfHarm,
    'hanging from a tree',
    (ws, i) =>
      and(is('hang'), withIn(1, is('from')), withIn(3, is('tree')))(ws, i) &&
      !ws.some((w, j) => w.sentence === ws[i].sentence && inSet(D.PLAYFUL_HANGING)(ws, j)),
  ),
  rule(R.SelfHarm, 'rope around the neck', pair(is('rope'), 4, is('neck'))),
  rule(R.SelfHarm, 'a rope and a chair', pair(is('rope'), 6, inSet(D.ROPE_PLACES))),
  rule(
    R.SelfHarm,
    'jumping off a bridge/roof',
    and(inSet(D.JUMP_VERBS), withIn(2, inSet(D.JUMP_DIRECTIONS)), withIn(6, inSet(D.HIGH_PLACES))),
  ),
  rule(
    R.SelfHarm,
    'the edge of a roof/bridge',
    or(and(is('edge'), withIn(1, is('of')), withIn(3, inSet(D.EDGE_PLACES))), and(is('edge'), withIn(-2, inSet(D.EDGE_PLACES)))),
  ),
  rule(
    R.SelfHarm,
    'lying in the road before a car',
    (ws, i) =>
      and(is('lie', 'lay', 'sit', 'sleep'), withIn(4, inSet(D.ROAD_WORDS)))(ws, i) &&
      ws.some((w, j) => w.sentence === ws[i].sentence && inSet(D.VEHICLE_WORDS)(ws, j)),
  ),
  rule(
    R.SelfHarm,
    'on a bridge railing',
    and(
      inSet(D.RAILINGS),
      or(withIn(-2, inSet(D.RAILING_PLACES)), withIn(3, inSet(D.RAILING_PLACES))),
      not(withIn(-6, inSet(D.SAFE_AT_A_RAILING))),
    ),
  ),
  rule(
    R.SelfHarm,
    'lying on railway tracks',
    (ws, i) =>
      pair(is('lie', 'lay', 'sit', 'stand', 'sleep'), 5, inSet(D.TRACK_WORDS), false)(ws, i) &&
      first(ws, is('train', 'railway', 'rail')) !== null,
  ),
  rule(R.SelfHarm, 'hurting oneself', pair(or(inSet(D.HIT_VERBS), is('burn', 'cut')), 2, inSet(D.SELF_WORDS), false)),
  rule(R.Violence, 'face down in water', pair(and(is('face'), withIn(1, is('down'))), 4, inSet(D.WATER_WORDS), false)),
  // "shot" is also a photograph ("a low angle shot of me"): as a verb only straight before its target
  rule(
    R.Violence,
    'hitting/shooting a person',
    and(
      or(
        and(inSet(D.HIT_VERBS), not(isText('shot')), withIn(2, inSet(D.HIT_TARGETS))),
        and(isText('shot'), withIn(1, inSet(D.HIT_TARGETS))),
      ),
      not(withIn(2, inSet(D.SELF_WORDS))),
    ),
  ),
  rule(R.Violence, 'burning a person or a house', pair(and(is('burn'), inflected), 2, inSet(D.BURN_TARGETS), false)),
  rule(R.Violence, 'setting on fire', and(is('set'), withIn(4, is('fire')))),
  rule(R.Violence, 'shot in the chest', and(isText('shot'), withIn(1, is('in')), withIn(3, tagged(T.Body)))),
  rule(R.Violence, 'dragging a body', and(inSet(D.BODY_MOVERS), withIn(2, is('body')))),
  // ----- injection -----
  rule(R.Injection, 'filter off / no safety', pair(inSet(D.FILTER_WORDS), 2, inSet(D.FILTER_OFF))),
  // "use no filter" is an order to the AI ("no filter, natural light" stays a photo look)
  rule(R.Injection, 'use no filter', and(is('use', 'apply', 'run'), withIn(1, is('no', 'zero')), withIn(2, inSet(D.FILTER_WORDS)))),
];

/** Every context rule that fires on the words of a text, with the position of the word it fired on. */
export function contextFindings(ws: readonly Word[]): Finding[] {
  const found: Finding[] = [];
  for (const r of CONTEXT_RULES) {
    const i = r.find(ws);
    if (i !== null) found.push({ reason: r.reason, rule: `${r.name}: word #${ws[i].position}` });
  }
  return found;
}

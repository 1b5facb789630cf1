import { AppError, ErrorCode, ValidationError } from '../../../common/errors';
import {
  ALLOWED_PHRASES,
  MINOR_TERMS,
  NUDE_COLOUR_FOLLOWERS,
  NUDITY_TERMS,
  OTHER_PERSON_TERMS,
  REASON_PRIORITY,
  SEXUAL_TERMS,
  VIOLENCE_TERMS,
} from './custom-pose-terms.data';
import {
  assertSafeCustomPose,
  checkCustomPose,
  CUSTOM_POSE_MAX_LENGTH,
  CUSTOM_POSE_SAFETY_MESSAGES,
  CustomPoseRefusedError,
  explainCustomPose,
  SafetyReason,
} from './index';

const R = SafetyReason;

/** [text, expected reason] */
const REFUSED: Array<[string, SafetyReason]> = [
  // nudity: plain, obfuscated, spaced, leetspeak, look-alikes, mixed case
  ['nude', R.Nudity],
  ['posing nude on the beach', R.Nudity],
  ['NuDe on a yacht', R.Nudity],
  ['N U D E on the beach', R.Nudity],
  ['n.u.d.e', R.Nudity],
  ['n-u-d-e by the pool', R.Nudity],
  ['nu de in bed', R.Nudity],
  ['n*d3 pose', R.Nudity],
  ['nuuuuuude', R.Nudity],
  ['nüdé', R.Nudity],
  ['ｎｕｄｅ selfie', R.Nudity], // full-width
  ['nud\u0435 in the garden', R.Nudity], // Cyrillic е
  ['𝓷𝓾𝓭𝓮', R.Nudity], // mathematical script letters
  ['ɴᴜᴅᴇ', R.Nudity], // small capitals
  ['nu\u200Bde', R.Nudity], // zero-width space
  ['n\u00ADu\u200Dd\uFEFFe', R.Nudity], // soft hyphen, zero-width joiner, BOM
  ['naked', R.Nudity],
  ['n4k3d in the rain', R.Nudity],
  ['na.ked', R.Nudity],
  ['n a k e d', R.Nudity],
  ['topless', R.Nudity],
  ['T0PL3SS on the beach', R.Nudity],
  ['top-less', R.Nudity],
  ['bottomless', R.Nudity],
  ['no clothes on', R.Nudity],
  ['without clothes', R.Nudity],
  ['completely undressed', R.Nudity],
  ['see-through dress', R.Nudity],
  ['see through lingerie', R.Nudity],
  ['sheer nipple top', R.Nudity],
  ['nsfw', R.Nudity],
  ['N.S.F.W pose', R.Nudity],
  ['lingerie off', R.Nudity],
  ['taking off her bra', R.Nudity],
  ['wearing nothing but heels', R.Nudity],
  ['nude heels only', R.Nudity], // the colour exception never hides "heels only"
  ['nude, heels only', R.Nudity],
  ['nude beach', R.Nudity],
  ['nude photo in the bedroom', R.Nudity],
  ['nude with heels', R.Nudity],
  ['in the shower', R.Nudity],
  ['b00bs out', R.Nudity],
  // sexual
  ['having sex', R.Sexual],
  ['s3x on the bed', R.Sexual],
  ['s e x', R.Sexual],
  ['p0rn star pose', R.Sexual],
  ['p*ssy', R.Sexual],
  ['fuuuuck', R.Sexual],
  ['f**k', R.Sexual],
  ['spread legs on the bed', R.Sexual],
  ['on all fours', R.Sexual],
  ['bdsm', R.Sexual],
  ['masturbating', R.Sexual],
  ['an erotic photo', R.Sexual],
  // minors: words, schools, ages in digits and words
  ['teen', R.Minor],
  ['t33n in a bikini', R.Minor],
  ['TeEnAgEr in a bedroom', R.Minor],
  ['a young girl on a swing', R.Minor],
  ['little girl in a dress', R.Minor],
  ['schoolgirl outfit', R.Minor],
  ['s c h o o l g i r l', R.Minor],
  ['sch00l-girl', R.Minor],
  ['school uniform', R.Minor],
  ['high school hallway', R.Minor],
  ['child model', R.Minor],
  ['kids', R.Minor],
  ['underage', R.Minor],
  ['loli style', R.Minor],
  ['15 years old', R.Minor],
  ['a 15-year-old', R.Minor],
  ['15yo', R.Minor],
  ['a 12 y/o', R.Minor],
  ['1 5 years old', R.Minor],
  ['fifteen year old girl', R.Minor],
  ['sixteen-year-old', R.Minor],
  ['aged fourteen', R.Minor],
  ['aged 12 at the beach', R.Minor],
  ["I'm 16 and in a red dress", R.Minor],
  ["she's 15", R.Minor],
  ['under 18', R.Minor],
  ['16th birthday party', R.Minor],
  ['sweet sixteen', R.Minor],
  ['in 9th grade', R.Minor],
  ['teen with no clothes', R.Minor], // several reasons: the most serious is reported
  // another real person
  ['my ex', R.OtherPerson],
  ['with my girlfriend at the beach', R.OtherPerson],
  ['her sister', R.OtherPerson],
  ['with my boyfriend', R.OtherPerson],
  ['as Taylor Swift on stage', R.OtherPerson],
  ['posing like Marilyn Monroe', R.OtherPerson],
  ['look like Beyonce', R.OtherPerson],
  ['make her look like my neighbour', R.OtherPerson],
  ['face of Emma Watson', R.OtherPerson],
  ['deepfake', R.OtherPerson],
  ['d33pf4k3', R.OtherPerson],
  ['swap face with her', R.OtherPerson],
  ['face swap', R.OtherPerson],
  ['in bed with him', R.OtherPerson],
  ["someone else's body", R.OtherPerson],
  // violence and self-harm
  ['holding a gun', R.Violence],
  ['holding a knife to her throat', R.Violence],
  ['covered in blood', R.Violence],
  ['suicide', R.Violence],
  ['self-harm', R.Violence],
  ['hanging herself', R.Violence],
  ['murder scene', R.Violence],
  // offensive
  ['bitch', R.Offensive],
  ['retard', R.Offensive],
];

const ALLOWED: string[] = [
  // ordinary poses and settings
  'walking on the beach at sunset',
  'sitting on a bar stool with a cocktail',
  'hands in the pockets of the coat',
  'looking over her shoulder',
  'standing in a sunlit kitchen holding a coffee mug',
  'leaning against a brick wall in the city at night',
  'twirling in a flowy summer dress in a flower field',
  'sitting cross-legged on a yoga mat in a bright studio',
  'lying on a sun lounger by the pool reading a book',
  'hands on hips, power pose, studio backdrop',
  'with her hair tied up in a bun',
  'with her hands in her hair',
  'with my hands on my hips',
  'standing with legs apart in a power stance',
  'Walking On The Beach As The Sun Sets',
  'looking like a million dollars',
  'look like a Greek goddess',
  'an al fresco lunch in Tuscany',
  'go re-apply lipstick in the mirror',
  // fashion words that contain, or sit next to, a listed word
  'nude heels',
  'nude lipstick',
  'nude-colour heels with a black dress',
  'nude-coloured pumps',
  'wearing nude heels on a rooftop',
  'Essex countryside',
  'Scunthorpe high street',
  "assassin's creed hoodie",
  'standing at the bottom of the stairs',
  'class photo reunion',
  'dressed in a cocktail dress',
  'sheer curtains behind her',
  'a sheer blouse over a camisole',
  'dressed to kill in a red dress',
  'killer heels',
  'blood red lipstick',
  'double-breasted blazer',
  'a shirt with a breast pocket',
  'kid gloves and a trench coat',
  'pussy bow blouse',
  'boyfriend jeans and a white tee',
  'mom jeans and a crop top',
  'a babydoll dress',
  'a choker necklace',
  'bomber jacket',
  'knife-pleated skirt',
  'weight lifting top at the gym',
  'taking off her sunglasses',
  'exposed brick wall behind her',
  'a shiitake risotto on the table',
  'a negroni at a rooftop bar',
  'sexy pose in a red dress', // decision: "sexy" describes a look, not an act
  'seductive look over her shoulder',
  // ages of adults, measurements and other numbers
  'a 25 year old woman in a blazer',
  'a twenty-five year old woman',
  'I am 30 and love red dresses',
  "I'm 5'4 and wearing heels",
  'I am 5 ft 6 in flats',
  'wearing a size 10 dress',
  '21st birthday party',
  '4th of July picnic in a white sundress',
  'in a 5 star hotel lobby',
];

describe('custom pose safety check', () => {
  it.each(REFUSED)('refuses %j (%s)', (text, reason) => {
    expect(explainCustomPose(text)).toEqual(expect.objectContaining({ reason }));
    expect(checkCustomPose(text)).toEqual({ ok: false, reason });
  });

  it.each(ALLOWED)('allows %j', (text) => {
    expect(explainCustomPose(text)).toBeNull();
    expect(checkCustomPose(text)).toEqual({ ok: true });
    expect(() => assertSafeCustomPose(text)).not.toThrow();
  });

  it('has a table of at least 60 cases', () => {
    expect(REFUSED.length + ALLOWED.length).toBeGreaterThanOrEqual(60);
  });

  describe('"nude" as a colour', () => {
    it.each(NUDE_COLOUR_FOLLOWERS.map((f) => [f]))('allows "nude %s"', (follower) => {
      expect(checkCustomPose(`nude ${follower}`)).toEqual({ ok: true });
    });

    it.each(['nude', 'nude model', 'nude pose', 'nude and heels', 'a dress in nude', 'nude body', 'nude nude heels'])('refuses %j', (text) => {
      expect(checkCustomPose(text)).toEqual({ ok: false, reason: R.Nudity });
    });
  });

  describe('the term lists', () => {
    const lists: Array<[SafetyReason, readonly string[]]> = [
      [R.Minor, MINOR_TERMS],
      [R.Sexual, SEXUAL_TERMS],
      [R.Nudity, NUDITY_TERMS],
      [R.OtherPerson, OTHER_PERSON_TERMS],
      [R.Violence, VIOLENCE_TERMS],
    ];

    it('refuses every listed term on its own, in a sentence, and in capitals', () => {
      const missed: string[] = [];
      for (const [reason, terms] of lists) {
        for (const term of terms) {
          const word = term.replace(/\*$/, '');
          for (const text of [word, `posing ${word} at the park`, word.toUpperCase()]) {
            const found = explainCustomPose(text);
            // a term may also be on a list of a more serious reason ("kissing" vs "my ex")
            if (!found || REASON_PRIORITY.indexOf(found.reason) > REASON_PRIORITY.indexOf(reason)) missed.push(`${reason}: ${text} -> ${found?.reason ?? 'ok'}`);
          }
        }
      }
      expect(missed).toEqual([]);
    });

    it('allows every allowed phrase on its own: an allowed phrase never hides a listed word', () => {
      expect(ALLOWED_PHRASES.filter((p) => !checkCustomPose(`wearing ${p}`).ok)).toEqual([]);
    });
  });

  describe('empty and too long', () => {
    it.each(['', '   ', '\n\t', '\u200B\u200B'])('answers "empty" for %j', (text) => {
      expect(checkCustomPose(text)).toEqual({ ok: false, reason: R.Empty });
    });

    it('answers "empty" for a value that is not a string', () => {
      expect(checkCustomPose(undefined as unknown as string)).toEqual({ ok: false, reason: R.Empty });
    });

    it(`allows ${CUSTOM_POSE_MAX_LENGTH} characters and refuses ${CUSTOM_POSE_MAX_LENGTH + 1}`, () => {
      const base = 'walking slowly along the quiet beach at sunset ';
      const exact = base.repeat(10).slice(0, CUSTOM_POSE_MAX_LENGTH);
      expect([...exact.trim()].length).toBeLessThanOrEqual(CUSTOM_POSE_MAX_LENGTH);
      expect(checkCustomPose(exact)).toEqual({ ok: true });
      expect(checkCustomPose('a'.repeat(CUSTOM_POSE_MAX_LENGTH))).toEqual({ ok: true });
      expect(checkCustomPose('a'.repeat(CUSTOM_POSE_MAX_LENGTH + 1))).toEqual({ ok: false, reason: R.TooLong });
      // surrounding whitespace does not count
      expect(checkCustomPose(`  ${'a'.repeat(CUSTOM_POSE_MAX_LENGTH)}  `)).toEqual({ ok: true });
    });

    it.each([
      ['masks', 'a' + '*'.repeat(298) + 'b'],
      ['masks inside a listed word', 't' + '*'.repeat(290) + 'nage'],
      ['masked words', 'n*d* '.repeat(60)],
      ['one letter', 'e'.repeat(300)],
      ['spelled out', 'a '.repeat(150)],
      ['capitals', 'as ' + 'Ab '.repeat(99)],
      ['split words', 'na-ked-'.repeat(42)],
    ])('never backtracks for long on %s', (_label, text) => {
      checkCustomPose('warm up');
      const started = Date.now();
      checkCustomPose(text);
      expect(Date.now() - started).toBeLessThan(250);
    });

    it('checks a long text quickly', () => {
      const text = 'n a k e d '.repeat(30).slice(0, CUSTOM_POSE_MAX_LENGTH);
      const started = Date.now();
      for (let i = 0; i < 20; i++) checkCustomPose(text);
      expect((Date.now() - started) / 20).toBeLessThan(50);
    });
  });

  describe('assertSafeCustomPose', () => {
    it('throws a VALIDATION_ERROR (400) with the reason\'s message', () => {
      let error: unknown;
      try {
        assertSafeCustomPose('topless on the beach');
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ValidationError);
      expect(error).toBeInstanceOf(AppError);
      expect(error).toBeInstanceOf(CustomPoseRefusedError);
      expect(error).toMatchObject({ code: ErrorCode.VALIDATION_ERROR, statusCode: 400, reason: R.Nudity, message: CUSTOM_POSE_SAFETY_MESSAGES[R.Nudity] });
    });

    it.each([
      ['', R.Empty],
      ['x'.repeat(CUSTOM_POSE_MAX_LENGTH + 1), R.TooLong],
      ['my ex', R.OtherPerson],
      ['a 15 year old', R.Minor],
    ] as Array<[string, SafetyReason]>)('throws for %j with the message of %s', (text, reason) => {
      expect(() => assertSafeCustomPose(text)).toThrow(CUSTOM_POSE_SAFETY_MESSAGES[reason]);
    });
  });

  it('has one user-facing sentence per reason', () => {
    for (const reason of Object.values(SafetyReason)) {
      const message = CUSTOM_POSE_SAFETY_MESSAGES[reason];
      expect(message).toMatch(/^[A-Z].*\.$/);
      expect(message.slice(0, -1)).not.toMatch(/[.!?]\s/);
    }
  });
});

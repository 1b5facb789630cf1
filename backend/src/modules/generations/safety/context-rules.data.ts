/**
 * The word sets of the context rules (context-rules.ts): vocabulary words that are harmless in
 * most sentences and harmful in some. Words are base forms (the rules compare lemmas, so "taking"
 * and "took" meet "take"). Which words are garments comes from the vocabulary's tags, not from here.
 */

const words = (list: string): ReadonlySet<string> => new Set(list.split(/\s+/).filter(Boolean));

/** Skipped between a rule's words: "taking off HER bra", "no ANY top". */
export const DETERMINERS = words('a an the her his my your their our its some any all every this that those these own');

// ---------------------------------------------------------------------------------------------
// Nudity
// ---------------------------------------------------------------------------------------------

/** "nothing" with one of these in the same sentence is nudity ("wearing nothing but sea foam"). */
export const NOTHING_CUES = words('wear dress clothe clothed but except else besides cover covered save apart');
/** Straight after "nothing": "nothing on", "nothing underneath". */
export const NOTHING_NEXT = words('on under underneath beneath');
/** "no bra", "without a top", "lose the shirt": one of these, then a garment. */
export const WITHOUT_WORDS = words('no without minus sans lose ditch skip zero');
/** Undressing verbs that need a particle: "taking her top off", "slipping off", "pulled down". */
export const UNDRESS_VERBS_WITH_PARTICLE = words(
  'take pull slip slide peel roll drop push tug lower hitch hike strip shrug wriggle shimmy ease fall come hang work get float drift wash blow fly',
);
export const UNDRESS_PARTICLES = words('off down away aside open loose undone');
/** Undressing verbs that need no particle: "lifting her top", "opening her robe". */
export const UNDRESS_VERBS_DIRECT = words(
  'lift raise hike hitch drop remove unbutton unzip undo untie unhook unclip unclasp unlace unwrap loosen shed rip',
);
/** Undressing only in an inflected form: "opening her robe" (an "open shirt" is a style), "torn dress". */
export const UNDRESS_VERBS_INFLECTED = words('open lower tear');
/** "stepping out of her dress" */
export const OUT_OF_VERBS = words('step slip get wriggle shimmy climb peel change');
/** Garments that are full outfits: "just a swimsuit" is dressed, "just a shirt" is not. */
export const FULL_OUTFITS = words(`
  dress gown jumpsuit swimsuit bikini one-piece pajamas pyjamas pjs outfit suit onesie romper playsuit tracksuit
  overalls dungarees clothes clothing costume lingerie swimwear wetsuit kaftan caftan nightgown nightdress
  loungewear sleepwear nightwear sundress minidress maxidress ballgown sari saree abaya kimono uniform leotard
  bathing-suit tankini sportswear activewear athleisure
`);
/** After "only"/"just" or before "only": what a person may not be wearing alone. */
export const ONLY_COVERS = words('smile foam bubble paint petal leaf sand shadow hair hand towel sheet blanket skin');
/** "wearing sea foam", "wearing only shadows": things that are not clothes. */
export const WEAR_NOT_CLOTHES = words('foam bubble paint petal leaf sand shadow sheet towel nothing skin');
/** "sheer curtains", "sheer joy": what "sheer" may describe; anything else (clothing) is see-through. */
export const SHEER_HARMLESS = words(
  'curtain drape voile joy delight bliss happiness size scale beauty drop cliff rock wall face luck elegance glamour magic pleasure fun tights stocking stockings hosiery pantyhose sleeve scarf shawl veil glove sock',
);
/** "bare feet", "bare shoulders": what "bare" may describe; anything else is nudity. */
export const BARE_HARMLESS = words(
  'foot feet shoulder arm leg hand face wall floor ground brick concrete wood tree branch minimum essential bone room ankle neck midriff knee toe',
);
/** Wet clothing is see-through. */
export const WET_WORDS = words('wet soak soaked soaking drench drenched damp drip dripping');
/** "wet hair", "wet sand": a wet word that describes the next word, which is not clothing. */
export const WET_HARMLESS_NEXT = words(
  'hair sand look grass rock pavement road street cobblestone paint lipstick gloss floor deck leaf sidewalk stone weather day season morning afternoon evening night pebble shore beach dog fur',
);
/** Changing clothes is undressing. */
export const CHANGED_CLOTHES = words('clothes clothing underwear lingerie bra');
/** What shows skin ("showing skin", "lots of skin"). */
export const SKIN_SHOWING = words(
  'show reveal flash expose bare more lot lots plenty all much full naked nude oil oiled oily glisten bared',
);
export const SHOW_OFF_PARTS = words('body skin chest curve figure');
/** "showing everything", "showing more skin" */
export const SHOW_VERBS = words('show reveal flash expose flaunt bare');
export const SHOWN_TOO_MUCH = words('everything all more much lot lots skin body');
/** "see through the dress", "you can see everything" (with clothing in the sentence) */
export const SEEN_THROUGH = words('through thru everything');
/** "pulling my dress over my head" */
export const OVER_HEAD_VERBS = words('pull lift take slip tug peel drag');
/** "wrapped in a towel", "under the sheets". */
export const WRAP_VERBS = words('wrap drape cover tangle clad dress swaddle');
export const WRAP_COVERS = words('towel sheet bedsheet');
/** "covering her chest", "covered by her hair". */
export const COVER_VERBS = words('cover hide shield');
export const COVERED_PARTS = words('chest body herself myself himself yourself');
export const COVERED_BY = words('hair hand arm towel sheet foam bubble paint blanket duvet quilt pillow leaf petal flower');
/** "long hair over my chest", "hands across her chest": the chest covered by something that is not clothing. */
export const CHEST_COVERS = words('hair hand palm finger leaf petal shell flower lock');
export const COVERED_CHEST = words('chest');
/** Besides garments, what is taken off or dropped in undressing. */
export const UNDRESS_EXTRAS = words('strap shoulder towel robe sheet');
/** Held in the hand instead of worn: "holding my bikini top". */
export const HELD_TOPS = words('top shirt t-shirt tee blouse tank bra bikini bikini-top swimsuit');
/** "top around my waist", "jeans around my ankles". */
export const WORN_TOPS = words(
  'top bra bikini bikini-top swimsuit dress slip camisole tank tube-top crop-top bralette lingerie underwear briefs',
);
export const WAIST_WORDS = words('waist hip');
export const ANKLE_WORDS = words('ankle knee');
/** A garment falling to the floor. */
export const FALL_VERBS = words('fall drop slip slide pool crumple');
export const FLOOR_WORDS = words('floor ground foot feet ankle');
/** Buttons popping open. */
export const BUTTON_MOVES = words('pop burst open undo');
/** A strap slipping down: these on their own... */
export const STRAP_MOVES = words('down off loose undone break snap lower pull');
/** ...and these with a direction or a shoulder near ("falling to mid-thigh" is a slip dress's length). */
export const STRAP_MOTIONS = words('slip fall slide drop');
export const STRAP_DIRECTIONS = words('off down away loose open shoulder arm');

/**
 * Outer layers: taking one off, opening it or going without one is not undressing ("taking off my
 * coat at the door", "without a jacket in the sun"). Jewellery, hats, scarves and shoes are not
 * clothing for these rules anyway (their vocabulary tags).
 */
export const OUTER_LAYERS = words(`
  coat jacket blazer parka anorak raincoat overcoat trench trench-coat trenchcoat puffer cape poncho shawl
  cardigan gilet fleece windbreaker mac duffle peacoat pea-coat overshirt shacket bomber kimono wrap stole
  apron
`);
/** Between "without"/"no" and a garment: "without a single piece of clothing", "no scrap of fabric". */
export const QUANTITY_WORDS = words('single piece of stitch scrap item bit shred thread article one any');
/** "nothing up top", "nothing on top". */
export const NOTHING_TOP = words('top');
/** A garment's lower half: "only the bottoms", "bikini bottoms only", "the bottom half only". */
export const BOTTOM_PIECES = words('bottom bottoms');
export const LOWER_HALF = words('lower bottom');
/** Between "only" and "bottoms": the garment they belong to ("only my swim bottoms", "just the pyjama bottoms"). */
export const GARMENT_MODIFIERS = words('swim swimming pyjama pajama pj lingerie bikini set matching gym track');
/** A garment lying on the ground is not being worn ("my bikini top on the sand beside me"). */
export const GROUND_WORDS = words('floor ground sand grass deck carpet rug');
/** What stands in for a garment: "my hands as a bra", "hair as a top". */
export const COVER_STAND_INS = words('hand palm arm hair finger leaf petal shell flower');
export const WORN_AS = words('bra top bikini bikini-top swimsuit underwear lingerie shirt clothes clothing');
/** "with the light shining through it": a garment that is seen through. */
export const SHINE_THROUGH = words('shine stream glow pour show filter peek');
export const SEEN_THROUGH_WHAT = words('it them');
/** "my clothes in a pile", "clothes next to me": clothes that are not being worn. */
export const CLOTHES_WORDS = words('clothes clothing');
export const PILE_WORDS = words('pile heap');
export const BESIDE_WORDS = words('beside next near by around');
export const SWIM_CUES = words('swim swimming lake river sea pool water ocean pond skinny');
/** "free of clothes" */
export const FREE_OF = words('free');

// ---------------------------------------------------------------------------------------------
// Sexual
// ---------------------------------------------------------------------------------------------

export const TOUCH_VERBS = words('touch feel play stroke grab squeeze caress rub fondle pet');
/** "tongue out" */
export const TONGUE_MOVES = words('out lick stick');
export const TOUCHED_PARTS = words('herself myself himself yourself themselves chest thigh body between');
export const LEG_WORDS = words('leg thigh knee');
export const LEG_OPENERS = words('spread open part wide');
/** "spread her cheeks", "butt cheeks apart" (a face's cheeks are puffed, kissed or rosy, not spread) */
export const CHEEK_SPREADERS = words('spread apart pull');
export const BUTT_WORDS = words('cheek buttock butt ass bum');
export const BENT_OVER_SURFACES = words(
  'bed table desk counter countertop sofa couch chair car bonnet hood railing sink bar kitchen bench stool',
);
/** Very short or very small clothes: "bending over in a tiny skirt", "a micro bikini". */
export const TINY_WORDS = words('tiny micro mini short miniskirt mini-skirt minidress mini-dress');
export const SKIMPY_GARMENTS = words('bikini thong short skirt top swimsuit dress bra underwear briefs');
/** What a close-up must not be of. */
export const CLOSE_UP_WORDS = new Set([...words('close-up closeup zoom focus macro'), 'close up']);
export const CLOSE_UP_PARTS = words('chest body hip thigh belly stomach skin navel');
/** Knees apart in a skirt. */
export const SHORT_OR_UNDER = words('skirt miniskirt mini-skirt dress minidress short underwear lingerie bikini nightie nightdress');
export const GOOD_BAD = words('good bad');
export const GIRL_BOY = words('girl boy');
export const SEXUAL_BODY_QUALIFIERS = words('sexy hot oiled oily wet');
export const SEXUAL_BODY_PARTS = words('body figure curve');
export const HOT_PEOPLE = words('girl woman body babe lady chick model');
export const OIL_WORDS = words('oil oiled oily');
export const OIL_PARTS = words('body skin leg chest thigh back');
/** "me covered in chocolate": food on a person. */
export const FOOD_COVERS = words('cream whipped-cream milk honey chocolate oil syrup icing frosting jam yogurt yoghurt slime foam sauce');
export const PERSON_WORDS_NEAR_FOOD = words('her me my myself herself body skin face chest leg i');
/** "whipped cream on my chest": food on a part of the body (not the lips or the face). */
export const FOOD_ON_PARTS = words('chest body skin belly stomach thigh leg back hip bum butt');
export const FEET_WORDS = words('foot feet toe sole');
/** ("close up" is a vocabulary phrase, read as one word) */
export const FEET_FOCUS = new Set([...words('close-up closeup focus zoom macro detail worship camera lens viewer'), 'close up']);
/** "smelling socks": a fetish. */
export const SMELLED_THINGS = words('sock foot feet shoe underwear armpit');
/** "hair tied up" is a hairstyle; "tied up" on its own is bondage. */
export const TIED_HARMLESS = words(`
  hair ponytail bun braid plait scarf ribbon bow lace shoelace dress shirt top bandana apron sweater jumper
  jacket robe belt sash knot headscarf shoe boot trainer sneaker balloon boat back halter neck front waist
  bikini-top cardigan flannel sarong
`);
export const TIED_PARTICLES = words('up down to');
export const ROPE_BINDING = words('tie bind wrap around');

/** Sitting astride a person: "riding a man", "mounting him". */
export const RIDE_VERBS = words('ride mount straddle astride');
/** Before "on top" where a person lies: the person is on top ("riding on top", "me on top", not "a cat on top"). */
export const ON_TOP_SUBJECTS = words('ride sit lie lay get climb be me i her she girl woman myself herself');
/** Feet, ankles or knees up by the ears or the head, where a person lies. */
export const FEET_UP_WORDS = words('foot feet ankle knee leg toe');
/** Where a person lies in a sexual pose: on a bed, a sofa; "on my back". */
export const RECLINING_CUES = words('bed mattress sheet sofa couch');
/** Legs or knees apart, or in the air, where a person lies. */
export const LEGS_APART = words('apart open spread wide');
/** The hips raised where a person lies: "hips up on the mattress". */
export const HIP_WORDS = words('hip butt bum backside rear bottom');
export const RAISED = words('up raise lift high air arch');
/** "taking it from behind" */
export const TAKE_IT = words('take get do have');

// ---------------------------------------------------------------------------------------------
// Minors
// ---------------------------------------------------------------------------------------------

/** "young woman", "young at heart"; "young" before anything else suggests a minor. */
export const YOUNG_HARMLESS = words('woman women adult professional at');
export const SMALL_WORDS = words('little small tiny petite mini');
export const CHILD_LIKE_AFTER_SMALL = words(`
  girl boy one kid child body frame figure sister brother princess angel doll cutie lady thing baby teen student
  me version self petite young small tiny
`);
/** "prom" is a dance; with one of these it is a school's. */
export const PROM_UNDER_18_CUES = words(
  'high junior senior sophomore freshman year grade teen student school first parent mom dad mum curfew',
);
/** A childish picture: one strong cue and one more cue of either kind. */
/** ("teddy bear" is a vocabulary phrase, read as one word) */
export const CHILDISH_STRONG = new Set([...words('pigtail teddy-bear crayon plush bubblegum knee-socks lollipop'), 'teddy bear']);
export const CHILDISH_WEAK = words(
  'cute little tiny small petite girly sweet shy giggle playful pastel bow ribbon freckle candy sweets teddy socks nightie nightgown onesie',
);
/** "a plaid skirt with knee socks and a tie" is a school uniform without the word. */
export const SCHOOL_SKIRT_PATTERNS = words('plaid tartan');
export const SCHOOL_UNIFORM_PARTS = words('sock knee-socks pigtail backpack tie necktie');

// ---------------------------------------------------------------------------------------------
// Other people
// ---------------------------------------------------------------------------------------------

/** Before a person word or a name: someone else is in the picture ("with a man", "next to Rose"). */
export const PERSON_CONTEXT = words(
  'with beside next behind hug hold kiss near and between alongside accompany like as meet date marry front top under over against onto around',
);
/** Before a place that is also a first name: "posing with Paris" (but "Rome and Paris", "a city like Paris" are places). */
export const PERSON_CONTEXT_STRICT = words('with beside next behind hug hold kiss alongside accompany meet date marry');
export const PERSON_NOUNS = words(
  'man woman guy lady gentleman boy girl person stranger dancer model friend partner bride groom husband wife boyfriend girlfriend family',
);
/** Words that carry a "him": another person is in the picture. */
export const OTHER_PEOPLE_PRONOUNS = words('him we us ourselves');
/** "the girl in this photo": someone else's picture. */
export const PICTURE_WORDS = words('photo picture pic image video post instagram profile screenshot');
/** Where a place that is also a first name may stand: "a street in Paris", "flying to Sydney". */
export const PLACE_PREPOSITIONS = words(`
  in at near to from over across around through of visit explore overlook towards toward above outside inside
  downtown central old new northern southern eastern western rainy sunny snowy
`);

// ---------------------------------------------------------------------------------------------
// Violence and self-harm
// ---------------------------------------------------------------------------------------------

export const CUT_TARGETS = words('wrist arm skin myself herself himself vein thigh leg');
/** "on my knees on the bed": kneeling for someone */
export const KNEELING_CUES = words('bed sofa couch front looking');
/** "lying in the road in front of a car" */
export const ROAD_WORDS = words('road street highway motorway track railway rail');
export const VEHICLE_WORDS = words('car truck bus train traffic lorry van tram');
export const HANG_TARGETS = words('rope neck herself myself himself ceiling beam rafter');
/** Hanging from a tree at play: upside down, from a branch, a swing, lights, a hammock. */
export const PLAYFUL_HANGING = words(
  'upside upside-down branch swing light lantern hammock monkey bar ornament decoration bauble fairy-lights',
);
/** A rope with a chair or a beam. */
export const ROPE_PLACES = words('chair stool ceiling beam rafter branch');
export const HIGH_PLACES = words('bridge roof rooftop building balcony skyscraper window tower cliff');
export const JUMP_VERBS = words('jump fall leap step throw');
export const JUMP_DIRECTIONS = words('off from out');
export const EDGE_PLACES = words('roof rooftop bridge building skyscraper balcony platform track');
/** "on a bridge railing": standing or sitting on it (leaning on it, holding it, looking over it is fine). */
export const RAILINGS = words('railing rail parapet balustrade');
export const RAILING_PLACES = words('bridge roof rooftop balcony building tower');
export const SAFE_AT_A_RAILING = words('lean hold grip rest prop look admire');
export const TRACK_WORDS = words('track railway rail');
export const WATER_WORDS = words('water pool sea river lake puddle ocean');
export const HIT_VERBS = words('punch kick hit slap beat box fight shoot strangle');
export const HIT_TARGETS = words('him man woman girl boy face head people me myself herself');
export const SELF_WORDS = words('myself herself himself yourself');
export const BURN_TARGETS = words('herself myself himself skin body arm house car building city');
/** "dragging a body" */
export const BODY_MOVERS = words('drag carry bury dump hide');

// ---------------------------------------------------------------------------------------------
// Injection
// ---------------------------------------------------------------------------------------------

export const FILTER_WORDS = words('filter safety moderation restriction rule censorship');
export const FILTER_OFF = words('off disable disabled remove removed bypass bypassed ignore turn');

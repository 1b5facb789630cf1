/**
 * The word sets of the number rule (numbers.ts, docs/safety.md "Numbers"): what makes a number an
 * age, a school year, a measurement, a time, a size, a label or a count. Words are base forms or
 * the forms people type ("yrs", "o'clock"); the rule compares lemmas.
 */

const words = (list: string): ReadonlySet<string> => new Set(list.split(/\s+/).filter(Boolean));

/** After a number, an age: "15 years old", "15 yo", "15 y/o". "year"/"years" alone are judged by what follows them. */
export const AGE_UNITS = words('year years yr yrs y yo');
/** After the age unit: "years old", "years young", "years of age". */
export const AGE_UNIT_FOLLOWERS = words('old young of');
/** A baby's age: "3 months old", "6 weeks old" (a minor whatever the number). */
export const BABY_AGE_UNITS = words('month months week weeks day days');
/** After a number and "years", a duration: "10 years ago", "5 years later", "3 years of travel". */
export const DURATION_FOLLOWERS = words('ago later since before after in on running straight');
/** Before a number and "years", a duration: "for 10 years", "after 5 years". */
export const DURATION_LEADS = words('for after over within in past last next');

/** Straight before a number, an age whatever the number is written as: "aged 15", "age 15", "turning 30", "turned fifteen". */
export const AGE_LEADS = words('aged age turning turned turn turns');
/**
 * Straight before a number in digits (or a number word that is not a vocabulary word), an age:
 * "I'm 15", "she is 15", "was 12", "make me look 12", "looking 25", "under 18", "only 15". A unit
 * or a noun after the number makes it a measurement or a count instead ("I'm 5 ft 4", "only 2 cups").
 */
export const WEAK_AGE_LEADS = words(
  "i'm im am is was she's shes he's hes who's whos look looks looking looked like under below barely only just nearly almost",
);
/** "me at 16", "her at 12", "myself at 9": the user at an age. */
export const SELF_WORDS = words('me myself her herself him himself i she');
/** "in my 30s", "in her late twenties". */
export const DECADE_OWNERS = words('my her his their your our');
export const DECADE_QUALIFIERS = words('early mid late');
/** Number words that are a minor's age wherever they stand. */
export const TEEN_WORDS = words('teen teens');
/** "sweet 16", "sweet sixteen". */
export const SWEET = words('sweet');

/** Before a small number, a school year: "year 9", "grade 3", "form 5", "class 4", "p6". */
export const SCHOOL_LEADS = words('year grade form class primary standard p');
/** After an ordinal, a school year: "7th grade", "a 9th grader", "10th form", "1st year". */
export const SCHOOL_FOLLOWERS = words('grade grader graders form former formers year');
/** The highest school year (year 13, grade 12) and ordinal: a school year is a minor's. */
export const MAX_SCHOOL_YEAR = 13;
/** "born in 2012": a birth year; "class of 2027": a school's year group. */
export const BIRTH_LEADS = words('born birth');
export const CLASS_OF = words('class');

/** A person next to a number makes it their age: "girl, 15", "a 15 girl", "a woman of 52". */
export const PERSON_WORDS = words(
  'girl boy woman man lady model me myself her she i daughter son kid child person guy female male teen teenager student',
);
/** Several people after a number: someone else in the picture ("two women", "3 guys"). */
export const PEOPLE_PLURAL = words(
  'girls boys women men ladies models guys people persons friends kids children daughters sons strangers dancers teens couples partners',
);

/** After a number, a unit: a measurement, a time, a price, a rating ("35 mm", "5 pm", "20 denier", "5 star"). */
export const UNIT_WORDS = words(`
  mm cm m km millimetre millimetres millimeter millimeters centimetre centimetres centimeter centimeters metre metres
  meter meters kilometre kilometres kilometer kilometers mile miles inch inches ft foot feet yard yards
  kg kgs kilo kilos kilogram kilograms gram grams g lb lbs pound pounds stone ounce ounces oz
  percent per cent pc degree degrees celsius fahrenheit denier mph kph fps mp megapixel megapixels iso k
  pm am o'clock oclock p.m a.m hour hours hr hrs h minute minutes min mins second seconds sec secs
  star stars carat carats karat karats ply tier tiers storey storeys story stories piece pieces pack packs layer layers
  dollar dollars euro euros quid bucks cent cents pence
  times x shot shots point points lap laps mile-long step steps rep reps set sets
`);
/** A length unit: the number after it is the rest of a height ("5 ft 6", "5 foot 4"). */
export const LENGTH_UNITS = words('ft foot feet');
/** Heights of a child: under 4 feet, or under 140 cm, next to a person or "tall". */
export const CHILD_HEIGHT_FEET = 4;
export const CHILD_HEIGHT_CM = 140;
export const HEIGHT_CUES = words('tall high height short');
/** Before a number, a size: "size 12", "uk 10", "eu 38". */
export const SIZE_LEADS = words('size sizes uk us eu');
/**
 * Before a number, a label: a gate, a room, a route, a page ("gate 12", "route 66", "studio 54",
 * "number 9", "no 5"). Not "year", "grade", "form" or "class": those are school years.
 */
export const LABEL_LEADS = words(`
  gate platform route room flight table pier studio channel level floor bus apartment flat suite door page
  number no track lane row seat aisle highway interstate terminal chapter act scene stage booth locker court
  hole jersey cabin deck line tram train car carriage coach building block tower unit lot bay dock berth
  exit junction station pump mile episode season volume vol apollo
`);
/** Before a number, a time: "at 8", "until 6", "from 9 to 5" (at most 24). */
export const TIME_LEADS = words('at by until till from after before around about past to between');
/** After a number, a time of day: "5 in the morning", "8 at night". */
export const TIME_OF_DAY = words('morning afternoon evening night');
/** Between two numbers, a range: "9 to 5", "2 or 3". */
export const RANGE_WORDS = words('to or and through till until');
/** Counted candles are a birthday's: "15 candles" is an age. */
export const AGE_COUNTS = words('candle candles');

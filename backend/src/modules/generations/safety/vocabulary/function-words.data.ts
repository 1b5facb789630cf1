import { group, VocabularyTag as T, type VocabularyGroup } from './vocabulary.types';

/**
 * Function words: articles, pronouns, prepositions, conjunctions, auxiliaries, common adverbs and
 * contractions. Left out on purpose: "someone", "somebody", "anyone", "everyone", "people" (the
 * picture shows only the user), "forget", "ignore", "previous" (instructions to the AI), and number
 * words other than the few below (an age can hide in any number).
 */
export const FUNCTION_WORDS: readonly VocabularyGroup[] = [
  group(
    T.Function,
    'fixed',
    `
    a an the this that these those some any each every either neither both all half few fewer many much
    more most less least lots plenty several such own other others another same whole enough
    i me my mine myself you your yours yourself yourselves she her hers herself he him his himself it its
    itself they them their theirs themselves we us our ours ourselves one ones one's
    who whom whose which what where when why how whatever whenever wherever whichever
    and or but nor so yet because while whilst although though if unless until till since as than then
    also too very just only even still already almost nearly quite rather really pretty fairly somewhat
    slightly totally fully completely entirely mostly mainly partly maybe perhaps probably instead
    especially exactly simply super extra kind sort bit lot
    of in on at to from into onto upon over under above below beneath underneath behind beside besides
    between among amongst around round across along through throughout toward towards against near
    nearby beyond within without off out up down about after before during past via per like unlike
    inside outside opposite by with for amid amidst atop alongside despite except mid
    is am are was were be been being have has had having do does did doing done will would shall should
    can could may might must need needs
    not no yes never always often sometimes usually ever again once twice here there now today tonight
    tomorrow yesterday soon later early late lately away back forward forwards backward backwards apart
    together alone aside ahead home indoors outdoors upstairs downstairs overhead abroad everywhere
    somewhere anywhere nowhere onward onwards everyday anyway
    let lets let's i'm i've i'll i'd you're you've you'll you'd she's she'll she'd he's he'll he'd it's
    it'll that's there's here's what's who's where's we're we've we'll they're they've they'll don't
    doesn't didn't isn't aren't wasn't weren't can't cannot won't wouldn't couldn't shouldn't haven't
    hasn't im ive youre shes dont doesnt didnt isnt cant wont thats theres
    eg ie etc ok okay please something anything everything nothing nobody none
  `,
  ),
  // "one leg raised", "a two-piece", "warrior three", "a third of the frame"; any other number is refused
  group(
    T.Number,
    'fixed',
    `
    one two three first second third half halves quarter double single triple dozen couple pair
    hundred hundreds thousand thousands million millions
  `,
  ),
];

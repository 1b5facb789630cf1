/**
 * Vocabulary words that are also common first names or surnames ("Rose", "Will", "Summer",
 * "Black"). Capitalised after "with", "like", "as", "and", "beside", "next to"..., or capitalised
 * next to another capitalised word ("Amber Heard", "Jack Black"), they name a person
 * (context-rules.ts: other_person); otherwise they are the word ("a rose", "with grace").
 */
export const NAME_LIKE_WORDS: readonly string[] = [
  'rose', 'lily', 'daisy', 'holly', 'ivy', 'iris', 'violet', 'hazel', 'jasmine', 'poppy', 'heather', 'olive',
  'ruby', 'pearl', 'amber', 'jade', 'coral', 'crystal', 'ginger', 'honey', 'summer', 'autumn', 'winter', 'dawn',
  'sky', 'rain', 'storm', 'river', 'ocean', 'hope', 'faith', 'joy', 'grace', 'harmony', 'melody', 'star',
  'angel', 'bliss', 'sunny', 'sandy', 'cliff', 'grant', 'mark', 'will', 'bill', 'rich', 'jack', 'miles',
  'dean', 'drew', 'frank', 'guy', 'hunter', 'pat', 'rob', 'ray', 'art', 'bob', 'don', 'max', 'may', 'june',
  'april', 'august', 'rock', 'stone', 'forest', 'blake', 'brook', 'chase', 'clay', 'cole', 'colt', 'glen',
  'lane', 'reed', 'rowan', 'sage', 'skye', 'wade', 'wren', 'robin', 'hunter', 'gene', 'bud', 'buck', 'cherry',
  'candy', 'destiny', 'liberty', 'serenity', 'trinity', 'precious', 'princess', 'queen', 'king', 'prince',
  'duke', 'earl', 'baron', 'major', 'prudence', 'patience', 'charity', 'constance', 'verity', 'mercy',
  'misty', 'dusty', 'rusty', 'cookie', 'peaches', 'bunny', 'kitty', 'tiger', 'lion', 'fox', 'wolf', 'bear',
  'hawk', 'swan', 'dove', 'wood', 'woods', 'field', 'fields', 'hill', 'hills', 'banks', 'bush', 'church',
  'hall', 'king', 'knight', 'lake', 'marsh', 'moore', 'park', 'rivers', 'shepherd', 'singer', 'taylor',
  'walker', 'cook', 'baker', 'black', 'white', 'brown', 'green', 'gray', 'grey', 'swift', 'young', 'long',
  'short', 'little', 'rich', 'bloom', 'marina', 'savanna', 'sierra', 'aurora', 'willow', 'paisley', 'roman', 'brooks',
  'brooke', 'raven', 'dahlia', 'lavender', 'juniper', 'clementine', 'magnolia', 'archer', 'rider', 'ranger', 'cash',
  'rocky', 'sonny', 'jay', 'sterling', 'goldie', 'blue', 'rainbow', 'ember', 'lyric', 'journey', 'legend', 'scout',
  'harper', 'mason', 'carter', 'cooper', 'parker', 'piper', 'skylar', 'sky', 'luna', 'nova', 'stella', 'bella',
  'angel', 'clara', 'eve', 'belle', 'cher', 'honey', 'candy', 'coco', 'kit', 'tiger', 'sugar',
];

/**
 * Irregular forms of vocabulary words, each to its base word (which must be in the vocabulary):
 * the stemmer (stemmer.ts) only knows the regular endings.
 */
export const IRREGULAR_FORMS: Readonly<Record<string, string>> = {
  // verbs
  sat: 'sit', stood: 'stand', lay: 'lie', lain: 'lie', laid: 'lay', leant: 'lean', ran: 'run', swam: 'swim',
  swum: 'swim', rode: 'ride', ridden: 'ride', drove: 'drive', driven: 'drive', flew: 'fly', flown: 'fly',
  fell: 'fall', fallen: 'fall', held: 'hold', wore: 'wear', worn: 'wear', took: 'take', taken: 'take',
  gave: 'give', given: 'give', got: 'get', gotten: 'get', made: 'make', kept: 'keep', went: 'go', gone: 'go',
  brought: 'bring', came: 'come', became: 'become', felt: 'feel', saw: 'see', seen: 'see', met: 'meet', led: 'lead',
  heard: 'hear', smelt: 'smell', spun: 'spin', swung: 'swing', slid: 'slide', knelt: 'kneel', bent: 'bend',
  stuck: 'stick', struck: 'strike', threw: 'throw', thrown: 'throw', caught: 'catch', drew: 'draw',
  drawn: 'draw', wrote: 'write', written: 'write', read: 'read', ate: 'eat', eaten: 'eat', drank: 'drink',
  bit: 'bite', bitten: 'bite', sang: 'sing', sung: 'sing', slept: 'sleep', woke: 'wake',
  woken: 'wake', dreamt: 'dream', began: 'begin', begun: 'begin', chose: 'choose', chosen: 'choose',
  found: 'find', left: 'leave', lit: 'light', hung: 'hang', froze: 'freeze', frozen: 'freeze', shone: 'shine',
  blew: 'blow', blown: 'blow', grew: 'grow', grown: 'grow', sprang: 'spring', sprung: 'spring', leapt: 'leap',
  shook: 'shake', shaken: 'shake', thought: 'think', taught: 'teach', bought: 'buy', paid: 'pay', sent: 'send',
  spent: 'spend', built: 'build', won: 'win', lost: 'lose', told: 'tell', sold: 'sell', stole: 'steal',
  tore: 'tear', torn: 'tear', wove: 'weave', woven: 'weave', knit: 'knit', sewn: 'sew',
  swept: 'sweep', dove: 'dive', shot: 'shoot', cut: 'cut', put: 'put', set: 'set', hit: 'hit', let: 'let',
  spread: 'spread', cast: 'cast', burnt: 'burn', learnt: 'learn', spelt: 'spell', spilt: 'spill',
  understood: 'understand', forgot: 'forget', forgotten: 'forget', rose: 'rise', risen: 'rise', strode: 'stride',
  stridden: 'stride', undid: 'undo', undone: 'undo', hid: 'hide', hidden: 'hide',
  // nouns
  feet: 'foot', teeth: 'tooth', women: 'woman', men: 'man', ladies: 'lady', leaves: 'leaf', knives: 'knife',
  scarves: 'scarf', shelves: 'shelf', loaves: 'loaf', halves: 'half', calves: 'calf', wolves: 'wolf',
  geese: 'goose', mice: 'mouse', sheep: 'sheep', fish: 'fish', deer: 'deer', children: 'child',
  // adjectives
  better: 'good', best: 'good', worse: 'bad', worst: 'bad', further: 'far', farther: 'far',
};

/**
 * The block lists of the custom-pose safety check: its second layer (block-list.ts), behind the
 * closed vocabulary (vocabulary/, docs/safety.md). The vocabulary refuses any word it does not
 * know; these lists name the reason of a refused word and refuse listed phrases made of vocabulary
 * words ("wardrobe malfunction" aside, "hot tub" is fine but "in the bath" is not). One list per
 * reason, for what the `obscenity` English dataset does not cover.
 *
 * How a term is written (custom-pose-safety.ts compiles it):
 * - plain lower-case words as a person would type them; punctuation and hyphens are separators
 *   ("see-through" also catches "see through" and "seethrough");
 * - a trailing `*` lets the last word continue ("undress*" catches undressed, undressing);
 * - a term matches whole words only, in the text after normalisation (normalize.ts: NFKC, accents,
 *   zero-width characters, look-alike letters, leetspeak), and tolerates repeated letters
 *   ("nuuude"), spaced letters ("n u d e"), split words ("na ked") and masked letters ("n*de").
 *
 * ALLOWED_PHRASES are cut out of the text before the lists are matched: ordinary fashion words
 * that contain a listed word ("nude heels", "kid gloves", "dressed to kill", "double-breasted").
 * Keep them narrow: an allowed phrase never hides a second, listed word next to it.
 */

/** The classes of refusal; each has one user-facing sentence (CUSTOM_POSE_SAFETY_MESSAGES). */
export enum SafetyReason {
  Empty = 'empty',
  TooLong = 'too_long',
  Minor = 'minor',
  Sexual = 'sexual',
  Nudity = 'nudity',
  SelfHarm = 'self_harm',
  Violence = 'violence',
  OtherPerson = 'other_person',
  Offensive = 'offensive',
  /** instructions to the AI, code, links, handles, hashtags, emoji, symbols */
  Injection = 'injection',
  /** digits or a number word: an age can hide in any number */
  Number = 'number',
  /** a word of another language (or another script) */
  Language = 'language',
  /** a word that is not in the vocabulary: a name, slang, a misspelling */
  UnknownWord = 'unknown_word',
}

/** The reason reported when a text has several: the most serious first. */
export const REASON_PRIORITY: readonly SafetyReason[] = [
  SafetyReason.Minor,
  SafetyReason.Sexual,
  SafetyReason.Nudity,
  SafetyReason.SelfHarm,
  SafetyReason.Violence,
  SafetyReason.OtherPerson,
  SafetyReason.Offensive,
  SafetyReason.Injection,
  SafetyReason.Number,
  SafetyReason.Language,
  SafetyReason.UnknownWord,
];

export const NUDITY_TERMS: readonly string[] = [
  // "nude" alone is refused; "nude" as a colour before a garment or make-up word is allowed below
  'nude*', 'nudity', 'nudist*', 'nekkid', 'noods', 'naturist*', 'naturism', 'naked*', 'nakey', 'topless', 'bottomless',
  'braless', 'pantyless', 'unclothed', 'undress*', 'disrob*', 'strip naked', 'stripped naked', 'no clothes',
  'no clothing', 'without clothes', 'without clothing', 'without any clothes', 'clothes off', 'clothing off',
  'wearing nothing', 'nothing on', 'with nothing on', 'wearing only', 'only wearing', 'nothing but', 'nothing else',
  'nothing underneath', 'nothing under', 'no bra', 'no underwear', 'no panties', 'no knickers', 'without a bra',
  'without underwear', 'without panties', 'lingerie off', 'bikini off', 'bra off', 'top off', 'panties off',
  'underwear off', 'dress off', 'shirt off', 'see-through', 'transparent bra', 'transparent top',
  'transparent lingerie', 'transparent bikini', 'transparent dress', 'transparent underwear', 'transparent shirt',
  'wet t-shirt', 'wet tshirt', 'nipple*', 'nip slip', 'areola*', 'breast', 'breasts', 'bare breast*', 'bare chested',
  'bare bottom', 'bare butt', 'bare ass', 'boobs', 'underboob', 'sideboob', 'side boob', 'genital*', 'pubic', 'pubes',
  'crotch shot', 'camel toe', 'cameltoe', 'nsfw', 'nsfl', 'xxx', 'x-rated', 'explicit', 'uncensored', 'lewd',
  'birthday suit', 'in the buff', 'skinny dipping', 'skinny dip', 'body paint', 'bodypaint', 'body painting', 'pasties',
  'hand bra', 'handbra', 'censor bar', 'implied nude', 'only a towel', 'just a towel', 'only a sheet', 'only heels',
  'just heels', 'heels only', 'only jewellery', 'only jewelry', 'jewellery only', 'jewelry only', 'only a necklace',
  'only stockings', 'stockings only', 'in the shower', 'showering', 'taking a shower', 'taking a bath', 'in the bath',
  'in the bathtub', 'bubble bath', 'wardrobe malfunction', 'flashing', 'exposed', 'exposing', 'expose her', 'expose my',
  'without a top', 'without her top', 'no top', 'transparent*', 'translucent', 'see thru', 'seethru', 'see-thru',
  'half dressed', 'half-dressed', 'partially dressed', 'partly dressed', 'barely dressed', 'barely covered',
  'barely there', 'scantily*', 'skimpy', 'revealing', 'milk bath', 'in a bath', 'in the tub', 'bathtub',
  'bath tub', 'shower', 'bathing naked', 'monokini', 'micro bikini', 'g-string', 'nip', 'nips', 'unclad',
  'au naturel', 'wardrobe slip', 'boob*',
  'tits', 'titties', 'cleavage', 'side boob', 'under boob', 'bare skin', 'strip down', 'stripping down',
  'strips down', 'get naked', 'getting naked', 'nothing underneath', 'no panties', 'commando', 'shirtless', 'dressless',
  'skirtless', 'chesty', 'busty', 'leggy', 'bareback',
];

/** Undressing: one of these verbs, optionally "her", "my", "the", "their" or "his", then one of the garments below. */
export const UNDRESSING_VERBS: readonly string[] = [
  'take off', 'taking off', 'takes off', 'took off', 'remove', 'removes', 'removing', 'removed', 'pull off',
  'pulling off', 'pull down', 'pulling down', 'pulls down', 'strip off', 'stripping off', 'slip off', 'slipping off',
  'dropping', 'unzip', 'unzipping', 'unhook', 'unhooking', 'unclasp', 'unclasping',
  // these only with a possessive: "lifting her top", but "weight lifting top" and "open top bus" are fine
  'lift her', 'lifting her', 'lifts her', 'lift my', 'lifting my', 'open her', 'opening her', 'open my', 'opening my',
  'drop her', 'drops her', 'drop my',
];
export const UNDRESSING_GARMENTS: readonly string[] = [
  'clothes', 'clothing', 'top', 'bra', 'bikini', 'bikini top', 'bikini bottom', 'bikini bottoms', 'lingerie',
  'underwear', 'panties', 'knickers', 'thong', 'dress', 'shirt', 't-shirt', 'tshirt', 'blouse', 'skirt', 'shorts',
  'pants', 'trousers', 'towel', 'robe', 'bathrobe', 'swimsuit', 'bodysuit', 'nightgown', 'nightie',
];

export const SEXUAL_TERMS: readonly string[] = [
  // the buttocks, named as a person's ("showing off her backside", "her behind"); "behind her" is a place
  'backside', 'backsides', 'her behind', 'my behind', 'his behind', 'your behind',
  // the core words obscenity also knows, here so that masked spellings ("p*ssy", "f*ck") are caught too
  'sex', 'seggs', 'secks', 'sexting', 'smut*', 'fuck*', 'pussy', 'pussies', 'cock', 'cocks', 'dick', 'dicks', 'cum',
  'cumshot', 'penis', 'vagina', 'clit', 'clitoris', 'anal', 'blowjob', 'handjob', 'dildo', 'slut*', 'whore*',
  'sexual*', 'having sex', 'intercourse', 'oral sex', 'making love', 'make love', 'foreplay', 'orgasm*', 'climax*',
  'aroused', 'arousal', 'arousing', 'horny', 'erection', 'erotic*', 'porn*', 'pornstar', 'porn star', 'onlyfans',
  'only fans', 'playboy', 'camgirl', 'cam girl', 'webcam model', 'escort', 'prostitut*', 'stripper*', 'striptease',
  'strip tease', 'stripping', 'lap dance', 'lapdance', 'touching herself', 'touching myself', 'touch herself',
  'touch myself', 'fingering', 'masturbat*', 'spread legs', 'spreading her legs', 'spreading my legs', 'legs spread',
  'legs wide open', 'spread eagle', 'on all fours', 'doggy style', 'doggystyle', 'missionary', 'cowgirl position',
  'reverse cowgirl', 'moaning', 'sperm', 'bukkake', 'creampie', 'fetish*', 'lust', 'lustful', 'tied to a chair',
  'hands tied', 'bound and gagged', 'bdsm', 'bondage', 'dominatrix', 'submissive', 'shibari', 'tied to the bed',
  'handcuffed', 'gagged', 'ball gag', 'spank*', 'sex toy', 'sex toys', 'vibrator', 'strap-on', 'strapon', 'upskirt',
  'up skirt', 'downblouse', 'down blouse', 'voyeur*', 'hidden camera', 'spy cam', 'ahegao', 'rule 34', 'r34',
  'sensual massage', 'grope', 'groping', 'fondl*', 'kissing', 'making out', 'make out', 'sugar daddy',
  'one night stand', 'booty call', 'gangbang', 'threesome', 'orgy', 'incest', 'stepsister', 'step sister', 'stepmom',
  'step mom', 'stepbrother', 'step brother', 'milf', 'jerk off', 'blow job', 'hand job', 'rimming',
  'sit on my face', 'sitting on my face', 'sit on his face', 'sitting on his face', 'sitting on her face',
  'face sitting', 'facesitting', 'get laid', 'getting laid', 'happy ending', 'cream pie', 'bedroom eyes',
  'come hither', 'come-hither', 'pet play', 'puppy play', 'kitten play', 'age play', 'ageplay', 'ddlg', 'abdl',
  'cnc', 'little space', 'littlespace', 'daddy dom', 'in chains', 'blindfold*', 'handcuff*', 'wrists tied',
  'tied wrists', 'tied hands', 'eating her out', 'eat her out', 'eat me out', 'riding him', 'ride him',
  'on top of him', 'twerk*', 'grinding on', 'dry hump*', 'humping', 'thrusting', 'booty', 'ecchi', 'hentai',
  'fansly', 'slutty', 'sensual', 'naughty', 'kinky', 'steamy', 'provocative', 'seductively undress*',
  'sex kitten', 'send nudes', 'nudes', 'come on my face', 'come on her face', 'came on her', 'came on my', 'come inside',
  'walk of shame', 'lick*', 'sucking', 'suck on', 'swallow*', 'deepthroat*', 'deep throat*',
  'moan*', 'panting', 'sweaty sheets', 'under the covers with', 'boudoir', 'burlesque', 'pole danc*',
  'stripper pole', 'dancing on a pole', 'manhood', 'hardcore', 'softcore', 'handsy', 'lovebite', 'love bite', 'hickey', 'latex', 'pvc', 'catsuit', 'fishnet*', 'thong', 'thongs', 'gimp', 'obey', 'worship', 'begging', 'submit', 'slave',
];

/** Age words and school settings. Ages under 18 in digits or words are found by rules in custom-pose-safety.ts. */
export const MINOR_TERMS: readonly string[] = [
  'child', 'children', 'childlike', 'childish', 'kid', 'kids', 'kiddie*', 'kiddo', 'toddler*', 'infant*', 'newborn*',
  'baby girl', 'little girl', 'little girls', 'young girl', 'young girls', 'young boy', 'little boy', 'girl child',
  'teen', 'teens', 'teenage*', 'teeny', 'teenie*', 'tween*', 'preteen*', 'pre-teen*', 'adolescen*', 'pubescent',
  'prepubescent', 'puberty', 'underage*', 'under age', 'under-18', 'minor', 'minors', 'a minor', 'jailbait',
  'barely legal', 'loli', 'lolis', 'lolita*', 'shota*', 'schoolgirl*', 'school girl', 'school girls', 'schoolboy*',
  'school boy', 'school uniform', 'school uniforms', 'high school', 'highschool', 'middle school', 'junior high',
  'elementary school', 'primary school', 'grade school', 'kindergarten', 'preschool*', 'nursery school',
  'sweet sixteen', 'quinceanera', 'girl scout', 'boy scout', 'cub scout', 'pigtails and braces', 'young looking',
  'younger looking', 'look younger', 'looking younger', 'look like a child', 'look underage', 'braces and pigtails',
  'daddy s girl', 'daddys girl', 'flat chest*', 'flat-chest*', 'student', 'students', 'pupil', 'pupils', 'classroom',
  'class room', 'homework', 'school*', 'schoolyard', 'playground', 'recess', 'detention', 'hall pass', 'sophomore*',
  'freshman', 'freshmen', 'cheerleader*', 'cheer leader', 'cheer practice', 'year seven', 'year eight',
  'year nine', 'year ten', 'year eleven', 'lollipop*', 'pacifier', 'dummy', 'diaper*', 'nappy', 'nappies',
  'sippy cup', 'baby*', 'babies', 'infant', 'tot', 'tots', 'little sister', 'little brother', 'young lady',
  'young ladies', 'youthful', 'innocent', 'virgin', 'virgins', 'virginity', 'pre teen', 'junior', 'juniors', 'middle schooler',
  'doll', 'dolls', 'dollhouse', 'mini me', 'childhood', 'pubert*', 'schoolbag', 'lunchbox',
  'pencil case', 'training bra', 'first bra',
];

/**
 * Someone else in the picture, or the user made to look like someone. The picture may show only
 * the user (docs/product.md). Relationship words are listed with the words that make them a person
 * ("my ex", "her sister"); "as <Firstname Lastname>" and "look like ..." are rules in the checker.
 */
export const OTHER_PERSON_TERMS: readonly string[] = [
  'daughter', 'daughters', 'stepdaughter', 'niece', 'nephew', 'deepfake*', 'deep fake*', 'face swap*', 'faceswap*',
  'swap face*', 'swap faces', 'swap her face', 'swap my face', 'swap the face', 'swapped face', 'replace her face',
  'replace my face', 'replace the face', 'replace face', 'put my face', 'put her face', 'put his face', 'use her face',
  'use his face', 'use this face', 'someone s face', 'somebody s face', 'face of', 'resembl*', 'lookalike*',
  'look alike', 'look-alike', 'doppelganger', 'impersonat*', 'famous person', 'famous people', 'famous actress',
  'famous actor', 'famous singer', 'famous model', 'famous influencer', 'famous woman', 'famous man', 'real person',
  'real people', 'another person', 'other person', 'other people', 'someone else', 'somebody else', 'another woman',
  'another girl', 'another man', 'another guy', 'other woman', 'other girl', 'with a man', 'with a woman', 'with a guy',
  'with a boy', 'with a girl', 'with him', 'with them', 'with someone', 'with somebody', 'with another',
  'next to a man', 'next to a woman', 'couple photo', 'couple pose', 'as a couple', 'romantic couple', 'two women',
  'two girls', 'two people', 'hugging him', 'holding hands with', 'group photo', 'group of friends', 'her twin',
  'my twin', 'twin sister', 'holding hands', 'first lady', 'queen of england', 'king of england', 'princess of wales',
  'prince of wales', 'king charles', 'queen elizabeth', 'the pope', 'president', 'prime minister', 'celebrity',
  'celebrities', 'celeb', 'influencer from', 'actress', 'actor', 'singer from', 'rapper', 'footballer', 'youtuber',
  'tiktoker', 'popstar like', 'someone', 'somebody', 'anyone', 'everyone', 'people', 'crowd of',
  // famous people whose names are ordinary words or are often typed in lower case (any unknown name is refused anyway)
  'taylor swift', 'amber heard', 'bad bunny', 'ice spice', 'jack black', 'will smith', 'kim kardashian',
  'kylie jenner', 'kendall jenner', 'beyonce', 'rihanna', 'zendaya', 'emma watson', 'emma stone', 'marilyn monroe',
  'ariana grande', 'billie eilish', 'selena gomez', 'bella hadid', 'gigi hadid', 'dua lipa', 'margot robbie',
  'scarlett johansson', 'jennifer lawrence', 'jennifer lopez', 'j lo', 'jlo', 'megan fox', 'sydney sweeney',
  'olivia rodrigo', 'sabrina carpenter', 'lady gaga', 'madonna', 'shakira', 'cardi b', 'nicki minaj', 'doja cat',
  'miley cyrus', 'britney spears', 'angelina jolie', 'anne hathaway', 'jenna ortega', 'millie bobby brown',
  'natalie portman', 'kate middleton', 'princess diana', 'meghan markle', 'michelle obama', 'greta thunberg',
  'elon musk', 'donald trump', 'joe biden', 'obama', 'putin', 'harry styles', 'timothee chalamet', 'tom holland',
  'pedro pascal', 'ryan gosling', 'brad pitt', 'chris hemsworth', 'kanye west', 'drake', 'the weeknd', 'adele',
  'pink the singer', 'salma hayek', 'sofia vergara', 'kate moss', 'naomi campbell', 'heidi klum',
  'gisele', 'hailey bieber', 'justin bieber', 'paris hilton', 'sydney sweeney', 'florence pugh', 'victoria beckham',
  'david beckham', 'charli xcx', 'addison rae', 'charli d amelio', 'loren gray', 'belle delphine', 'mia khalifa',
  'emily ratajkowski', 'kaia gerber', 'iris law', 'lily rose depp', 'lily-rose depp', 'winona ryder',
  'audrey hepburn', 'grace kelly', 'princess grace',
];

/** Who, after a possessive or "with", is another person: "my ex", "her sister", "with my boyfriend". */
export const RELATIONSHIP_NOUNS: readonly string[] = [
  'man', 'woman', 'family', 'kids', 'babe', 'hubby', 'wifey', 'date', 'ex', 'ex-girlfriend', 'ex-boyfriend', 'ex-wife', 'ex-husband', 'girlfriend', 'boyfriend', 'gf', 'bf', 'wife',
  'husband', 'partner', 'fiance', 'fiancee', 'sister', 'sisters', 'brother', 'brothers', 'mother', 'mom', 'mum',
  'mommy', 'mummy', 'father', 'dad', 'daddy', 'son', 'sons', 'cousin', 'aunt', 'auntie', 'uncle', 'grandma',
  'grandmother', 'granny', 'grandpa', 'friend', 'friends', 'best friend', 'bestie', 'bff', 'coworker', 'co-worker',
  'colleague', 'boss', 'neighbour', 'neighbor', 'teacher', 'student', 'classmate', 'roommate', 'flatmate', 'housemate',
  'crush', 'lover', 'bride', 'groom', 'mistress', 'stepmother', 'stepfather',
];
/** The words before a relationship noun that make it someone in (or of) the picture. */
export const RELATIONSHIP_DETERMINERS: readonly string[] = [
  'my', 'her', 'his', 'their', 'your', 'our', 'someone s', 'somebody s', 'with', 'with my', 'with her', 'with his',
  'with a', 'with an', 'with the', 'like my', 'like her', 'as my', 'as her',
];

export const VIOLENCE_TERMS: readonly string[] = [
  'kill', 'kills', 'killing', 'killed', 'murder*', 'massacre', 'blood', 'bloodied', 'bleeding', 'bloodbath', 'gore',
  'gory', 'corpse', 'dead body', 'decapitat*', 'behead*', 'dismember*', 'mutilat*', 'torture*', 'strangl*', 'choke',
  'choked', 'choking', 'suffocat*', 'stab', 'stabbed', 'stabbing', 'gun', 'guns', 'handgun', 'pistol', 'rifle',
  'shotgun', 'firearm*', 'weapon*', 'knife', 'knives', 'machete', 'bomb', 'bombs', 'explosive*', 'grenade*',
  'shot dead', 'shooting someone', 'gunpoint', 'hostage', 'kidnap*', 'abduct*', 'abuse', 'abused', 'abusing',
  'beaten up', 'being beaten', 'bruised', 'bruises', 'black eye', 'injured', 'wounded', 'terroris*', 'nazi*',
  'swastika', 'assault*', 'violent', 'violence', 'drugged', 'unconscious', 'dead', 'die', 'dies', 'dying', 'death',
  'lifeless', 'shooter', 'gunshot*', 'bullet*', 'war', 'warzone', 'war zone', 'bombing', 'explosion*', 'riot*',
  'arson', 'set on fire', 'set fire', 'setting fire', 'burning alive', 'burned alive', 'burnt alive', 'punched',
  'slapped', 'beaten', 'beat her', 'beating her', 'hitting her', 'hit her', 'sword*', 'dagger*', 'axe', 'chainsaw',
  'crossbow', 'drown*', 'hanged', 'execution', 'executed', 'wound', 'wounds', 'scar', 'scars', 'scarred',
  'crime scene', 'police tape', 'victim', 'attack*', 'hurt', 'hurting', 'pain', 'torn apart', 'car crash',
  'plane crash', 'crash site', 'not breathing', 'stopped breathing', 'no pulse', 'no heartbeat', 'motionless body',
];

/** Self-harm and suicide, and the poses and props that show them (a rule finds "cutting her wrists", "jumping off a roof"). */
export const SELF_HARM_TERMS: readonly string[] = [
  'suicid*', 'self-harm', 'self harm', 'selfharm', 'cut myself', 'cutting myself', 'cut herself', 'cutting herself',
  'slit wrist*', 'slit her wrist*', 'slit my wrist*', 'hang myself', 'hanging myself', 'hang herself',
  'hanging herself', 'hanged herself', 'noose', 'overdose', 'jump off a bridge', 'jumping off a roof', 'kill myself',
  'kill herself', 'killing myself', 'killing herself', 'want to die', 'wanting to die', 'wants to die',
  'wish i was dead', 'wish i were dead', 'end my life', 'end her life', 'end it all', 'ending it all',
  'take my own life', 'take her own life', 'hurt myself', 'hurting myself', 'hurt herself', 'hurting herself',
  'harm myself', 'harming myself', 'starve myself', 'starving myself', 'starving herself', 'pro ana', 'pro-ana',
  'proana', 'thinspo*', 'thigh gap', 'skin and bones', 'ribs showing', 'visible ribs', 'pills', 'pill bottle',
  'bottle of pills', 'razor*', 'blade*', 'in front of a train', 'front of a train', 'bleeding out', 'scars on her',
  'cuts on her', 'edge of the roof', 'edge of a roof', 'edge of the bridge', 'off the ledge', 'ledge',
];

/**
 * Instructions to the AI ("ignore previous instructions", "you are now", "SYSTEM"). Most are not
 * vocabulary words and would be refused anyway; listed, they are reported as injection.
 */
export const INJECTION_TERMS: readonly string[] = [
  'ignore*', 'disregard*', 'instruction*', 'prompt*', 'system', 'sys', 'jailbreak*', 'bypass*', 'override*',
  'uncensor*', 'unfilter*', 'unrestrict*', 'developer mode', 'dev mode', 'god mode', 'dan mode', 'do anything now',
  'you are now', 'you must', 'from now on', 'act as', 'pretend', 'pretending', 'roleplay', 'role play',
  'role-play', 'simulate', 'forget', 'forget your', 'previous', 'above instructions', 'new rules', 'new task',
  'the rules', 'your rules', 'guidelines', 'policy', 'policies', 'content policy', 'safety filter', 'safety filters',
  'content filter', 'nsfw filter', 'filter off', 'filters off', 'no safety', 'safety off', 'no restrictions',
  'without restrictions', 'no rules', 'no censorship', 'censor*', 'moderation', 'admin', 'administrator', 'sudo',
  'root access', 'assistant', 'chatgpt', 'gpt', 'openai', 'claude', 'gemini', 'midjourney', 'stable diffusion',
  'dall-e', 'dalle', 'ai model', 'language model', 'as an ai', 'output', 'respond', 'reply', 'repeat after me',
  'say yes', 'comply', 'negative prompt', 'lora', 'token', 'tokens', 'endoftext', 'im start', 'im end', 'inst',
  'end of prompt', 'execute', 'command', 'disable', 'enable',
];

/**
 * Ordinary fashion and pose phrases that contain a listed word. Cut out before matching, so the
 * listed word inside them does not count (a listed word next to them still does).
 */
export const ALLOWED_PHRASES: readonly string[] = [
  'pussy bow', 'pussycat bow', 'cum laude', 'kid gloves', 'kid glove', 'kid leather', 'kidskin', 'dressed to kill',
  'killer heels', 'blood red', 'blood-red', 'blood orange', 'ox blood', 'knife pleat', 'knife pleats', 'knife pleated',
  'knife-pleated', 'oxblood', 'breast pocket', 'breast pockets', 'double-breasted', 'single-breasted', 'double breast',
  'breaststroke', 'breast cancer awareness', 'face of the', 'baby doll', 'babydoll', 'boyfriend jeans',
  'boyfriend jean', 'boyfriend blazer', 'boyfriend shirt', 'boyfriend cardigan', 'boyfriend fit', 'boyfriend cut',
  'boyfriend style', 'boyfriend tee', 'boyfriend coat', 'girlfriend jeans', 'mom jeans', 'mum jeans', 'dad sneakers',
  'dad shoes', 'dad hat', 'dad cap', 'date night', 'on a date', 'bride to be', 'stripped back', 'exposed brick',
  'exposed brick wall', 'exposed shoulders', 'exposed shoulder', 'exposed back', 'exposed midriff', 'exposed seams',
  'exposed zip', 'exposed zipper', 'partner yoga', 'beat up sneakers', 'flashing lights', 'flashing light',
  'flashing neon', 'gun metal', 'gunmetal', 'gun grey', 'no top coat', 'top off the look', 'tops off the look',
  // yoga poses and colours of the vocabulary (vocabulary/poses.data.ts, clothing.data.ts)
  "child's pose", 'child pose', 'childs pose', 'happy baby', 'baby cobra', 'corpse pose', 'baby blue', 'baby pink',
  "baby's breath", 'kitten heels', 'kitten heel', 'day of the dead', 'drop dead gorgeous', 'drop-dead gorgeous',
  'old school', 'old-school', 'dead sea', 'forget-me-not', 'forget me not', 'exposed beams', 'shoulder blade', 'shoulder blades', 'shoulder-blade', 'shoulder-blades',
];

/**
 * "nude" as a colour: allowed only straight before one of these garment or make-up words, with at
 * most a colour word between ("nude heels", "nude-colour lipstick", "nude toned pumps"). Anything
 * else ("nude beach", "nude photo", "nude and heels", "nude toned body") is refused.
 */
export const NUDE_COLOUR_QUALIFIERS: readonly string[] = [
  'colour', 'color', 'coloured', 'colored', 'tone', 'toned', 'tones', 'tonal', 'shade', 'beige', 'pink', 'satin', 'silk',
  'matte', 'glossy', 'patent', 'leather', 'suede', 'lace',
];
export const NUDE_COLOUR_FOLLOWERS: readonly string[] = [
  'heels', 'heel', 'pumps', 'pump', 'shoes', 'shoe', 'sandals', 'sandal', 'flats', 'boots', 'boot', 'stilettos',
  'stiletto', 'mules', 'slingbacks', 'wedges', 'loafers', 'sneakers', 'trainers', 'lipstick', 'lip', 'lips', 'gloss',
  'lipgloss', 'liner', 'nail', 'nails', 'polish', 'manicure', 'pedicure', 'makeup', 'make-up', 'eyeshadow', 'palette',
  'blush', 'bra', 'slip', 'camisole', 'cami', 'dress', 'gown', 'top', 'blouse', 'shirt', 'skirt', 'bodysuit',
  'leotard', 'tights', 'stockings', 'hosiery', 'pantyhose', 'bag', 'handbag', 'clutch', 'purse', 'belt', 'trench',
  'coat', 'blazer', 'jacket', 'jumpsuit', 'swimsuit', 'bikini', 'one-piece', 'cardigan', 'sweater', 'jumper', 'knit',
  'knitwear', 'satin', 'silk', 'leather', 'suede', 'linen', 'trousers', 'pants', 'shorts', 'outfit', 'scarf', 'hat',
  'gloves',
];

/** Number words under 18, for ages written in words ("fifteen-year-old", "aged twelve"). */
export const AGE_WORDS_UNDER_18: readonly string[] = [
  'zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen',
  'fourteen', 'fifteen', 'sixteen', 'seventeen',
];
/** Ordinal words under 18th, for "sixteenth birthday". */
export const ORDINAL_WORDS_UNDER_18: readonly string[] = [
  'first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth', 'eleventh', 'twelfth',
  'thirteenth', 'fourteenth', 'fifteenth', 'sixteenth', 'seventeenth',
];

/**
 * Phrases that the `obscenity` English dataset flags but that are ordinary here. "sexy" describes
 * a look, not an act, and the product sells lingerie and "spicy" outfits: allowed (decision; see
 * the safety test). Everything the dataset flags otherwise is refused.
 */
export const OBSCENITY_ALLOWED_PHRASES: readonly string[] = [
  'sexy', 'pussycat bow', 'pussy bow', 'pussy-bow', 'pussybow', 'cumin', 'cum laude', 'summa cum laude', 'shiitake',
  'cummerbund', 'cumberbund', 'cumulus', 'scunthorpe', 'penistone', 'dickies', 'cocktail', 'peacock', 'negroni',
  'assassin', 'spicy', 'cockpit',
];

/** obscenity's words that are about sex or nudity (the rest are slurs and insults: "offensive"). */
export const OBSCENITY_SEXUAL_WORDS: readonly string[] = [
  'anal', 'anus', 'bestiality', 'blowjob', 'buttplug', 'cock', 'cum', 'cunt', 'deepthroat', 'dick', 'dildo',
  'doggystyle', 'double penetration', 'ejaculate', 'felch', 'fellatio', 'finger bang', 'fisting', 'fuck', 'gangbang',
  'handjob', 'hentai', 'hooker', 'incest', 'jerk off', 'jizz', 'lubejob', 'masturbate', 'orgasm', 'orgy', 'penis',
  'porn', 'pussy', 'rape', 'semen', 'sex', 'slut', 'vagina', 'wank', 'whore', 'scat',
];
export const OBSCENITY_NUDITY_WORDS: readonly string[] = ['boob', 'tit'];

import { group, VocabularyTag as T, type VocabularyGroup } from './vocabulary.types';

/**
 * Moods, looks and everyday describing words. "sexy", "seductive", "sultry", "flirty" and
 * "alluring" describe a look and stay allowed (the product sells lingerie; see docs/safety.md);
 * left out on purpose: sensual, erotic, naughty, kinky, steamy, provocative, teasing, revealing,
 * skimpy, scanty, innocent, naive, virgin, youthful, barely, submissive, dominant.
 * Words judged in context (context-rules.ts): young, little, small, tiny, petite, hot, good, bad,
 * bare, sheer, clear, wet, nude, open, tight.
 */
export const MOOD_WORDS: readonly VocabularyGroup[] = [
  group(
    T.Mood,
    'adjective',
    `
    happy joyful joyous cheerful playful carefree relaxed calm serene peaceful content contented dreamy
    thoughtful pensive wistful nostalgic romantic confident bold fierce strong powerful proud elegant
    graceful poised chic classy sophisticated glamorous glam stylish trendy fashionable edgy cool casual
    effortless natural candid genuine sweet soft gentle warm cozy cosy snug comfy comfortable lazy sleepy
    drowsy tired energetic lively vibrant bubbly bright sunny radiant glowing fresh flirty sultry seductive
    sexy alluring mysterious moody dramatic intense serious focused determined sporty athletic active fit
    free wild adventurous curious surprised excited delighted amused silly goofy quirky cheeky mischievous
    gorgeous beautiful pretty lovely stunning cute adorable charming regal majestic ethereal whimsical
    magical enchanting enchanted mystical dreamlike vintage retro classic timeless modern minimalist minimal
    bohemian boho rustic preppy grunge punk gothic goth sleek polished luxe luxurious opulent lavish homely
    festive merry jolly spooky eerie haunted gloomy melancholy melancholic sad lonely emotional tearful
    heartbroken angry nervous hopeful grateful blissful tranquil zen mellow chill chilled breezy easygoing
    laid-back elated ecstatic brave daring sassy spirited spontaneous charismatic friendly kind welcoming
    inviting relaxing soothing uplifting empowering inspiring fearless feminine masculine androgynous dainty
    delicate demure graceful glamourous glamorous girly ladylike chic understated refined artsy arty creative
    dreamy moody cinematic editorial artistic fun funny quirky nerdy bookish cottagecore dark-academia
    old-money coastal-grandmother clean-girl it-girl fresh-faced dewy glowy sun-kissed windswept tousled
    effortless put-together well-dressed well-groomed off-duty laid-back low-key high-fashion avant-garde
    fierce confident statuesque model-like runway-ready camera-ready photo-ready glam-ready red-carpet
    sophisticated worldly cosmopolitan urban suburban rural coastal tropical exotic cultured artful sultry
    serene dreamy hopeful peaceful wistful contemplative introspective reflective meditative mindful
    focused present grounded centred centered balanced strong flexible agile nimble supple limber sweaty
    energised energized refreshed rested awake alert sleepy yawning giggly smiley beaming
    teary misty-eyed starry-eyed wide-eyed bright-eyed rosy rosy-cheeked flushed windblown sunburnt
    sunburned tanned bronzed freckled pale fair dark tall short  curvy slim slender athletic
    muscular toned strong plus-size full-figured statuesque lanky broad-shouldered long-legged
  `,
  ),
  group(
    T.Mood,
    'noun',
    `
    joy happiness calm bliss freedom confidence elegance grace glamour glamor romance nostalgia wanderlust
    mood vibe aesthetic energy attitude spirit style look feel feeling atmosphere ambience ambiance serenity
    peace comfort warmth charm fun excitement adventure wonder magic fantasy mystery drama power strength
    beauty sparkle glow sass swagger poise pride delight laughter smile contentment relaxation gratitude
    wonderland fairytale fairy-tale daydream dream reverie escape escapism
  `,
  ),
  group(
    T.Descriptive,
    'adjective',
    `
    big small large   huge giant tall short long wide narrow high low deep shallow thin thick heavy
    light soft hard smooth rough sharp round square flat curved straight wavy curly messy neat tidy clean
    dirty old new  modern ancient antique vintage classic traditional rustic fancy simple plain hot
    cold warm cool wet dry empty full busy quiet crowded lively calm open closed bright dark dim shiny
    glossy matte glittery sparkly shimmery beautiful near far close distant favourite favorite perfect
    ideal nice good great fine better best bad lovely golden silver wooden fresh ripe sweet salty sandy
    rocky grassy leafy snowy icy misty foggy lush wild overgrown blooming flowering sunlit moonlit
    candlelit windswept gleaming glittering twinkling floating flowing loose tight fitted oversized baggy
    slouchy cropped flowy floaty billowy  clear   real whole entire main central middle
    upper lower inner outer front rear top bottom left right next last final other different similar
    same special unique rare common ordinary everyday usual typical classic iconic elegant
    grand  mini miniature  huge massive enormous endless vast spacious cosy cramped airy bright
    sunny shady breezy humid quiet noisy loud silent peaceful busy bustling sleepy charming quaint pretty
    picturesque scenic romantic dreamy idyllic secluded hidden private empty deserted remote
    wild untouched pristine crystal-clear turquoise sparkling calm choppy rolling gentle steep rugged
    rocky sandy pebbly grassy mossy leafy shady dappled golden amber rosy pink fiery stormy moody
    dramatic cinematic striking bold vivid colourful colorful bright pastel muted neutral earthy warm cool
    monochrome tonal contrasting matching coordinated layered textured patterned printed plain solid
    simple minimal clean crisp fresh light airy breezy summery wintry autumnal springy seasonal festive
    cozy luxurious elegant chic stylish classy glamorous polished sleek sporty casual relaxed smart formal
    informal dressy dressed-up dressed-down everyday weekend holiday party evening daytime nighttime
    outdoor indoor urban rural coastal seaside countryside city mountain forest desert tropical alpine
    arctic nordic mediterranean eastern western northern southern
    early late morning afternoon evening nightly daily weekly yearly annual seasonal
    fast slow quick slowly gradual sudden still steady gentle graceful
    happy sad proud quiet loud
    comfortable uncomfortable easy difficult hard simple
    rich poor cheap expensive affordable
    free busy ready
    healthy fit strong weak
    brand-new handmade homemade home-made freshly-baked hand-picked hand-painted hand-knitted
  `,
  ),
  group(
    T.Descriptive,
    'fixed',
    `
    slowly quickly gently softly lightly casually carefully gracefully elegantly confidently playfully
    happily joyfully calmly peacefully lazily dreamily thoughtfully proudly boldly brightly warmly
    effortlessly naturally candidly sweetly shyly quietly loudly freely wildly tightly loosely
    barefoot alfresco al-fresco en-route shy
    young little tiny petite nude bare sheer
  `,
  ),
  group(
    T.Self,
    'noun',
    `
    woman women lady ladies man men gentleman model supermodel dancer ballerina athlete runner jogger
    swimmer surfer skier skater climber hiker cyclist yogi traveller traveler tourist explorer adventurer
    backpacker photographer artist painter writer reader chef baker cook gardener musician singer
    guitarist pianist violinist performer star icon diva queen princess prince king goddess
    bride bridesmaid guest host hostess girl boss influencer blogger vlogger creator shopper customer
    myself self version
  `,
  ),
];

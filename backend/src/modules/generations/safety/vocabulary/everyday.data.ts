import { group, phrases, VocabularyTag as T, type VocabularyGroup, type VocabularyPhrase } from './vocabulary.types';

/**
 * Everyday words that a person describing a scene uses and that the topic files do not hold:
 * common actions, things, places, events and describing words. Curated by hand like the rest:
 * nothing here is sexual, about the body's private parts, a minor, a weapon, a drug or an
 * instruction to the AI (see the review rule in docs/safety.md).
 */
export const EVERYDAY_WORDS: readonly VocabularyGroup[] = [
  group(
    T.Pose,
    'verb',
    `
    wipe set choose select decide sneak tiptoe reapply re-apply trail roast grill barbecue fry boil simmer steam season drizzle mash blend brew
    plate garnish carve sled toboggan journal overlook whitewash line mull live fluff nibble savour savor
    pluck peel rinse scrub clean tidy dust vacuum iron sort organize organise load unload haul juggle dip
    squint arch strike craft weave sculpt mould mold dig rake mow harvest forage accessorize accessorise
    match layer knot fasten buckle smooth straighten moisturize moisturise cleanse pamper pray board land
    hitch hail fetch trot gallop canter saddle chase clap stamp tap drum strum hum whistle cheer applaud
    toast smell sniff inhale exhale taste sample try test compare browse scan flick scroll swipe snap
    film vlog blog post share capture frame edit print stick glue paint colour color shade sketch trace
    fold crumple  wrap unwrap ribbon gift surprise laugh chat gossip whisper sing recite read narrate
    perform rehearse audition practise practice train coach teach learn study revise memorise memorize
    climb descend ascend cross pass overtake lead follow guide steer park reverse brake honk signal
    hurry rush dash zip zoom cruise coast glide drift float hover soar swoop circle loop wind wander roam
    meander ramble trek hike camp pitch sleep rest recover heal breathe sigh relax unwind destress
    celebrate cheer party mingle dance sway bop groove  boogie jive waltz tango salsa twist
    cook bake stir whisk knead flip pour sip gulp slurp munch crunch nibble chew  bite
    cuddle snuggle  hug cradle rock soothe comfort console calm
    wave greet smile nod bow curtsy salute point beckon gesture signal
    pick gather collect forage  fish pick pluck
    shelter protect shade shield cover wrap bundle huddle
    sparkle twinkle glimmer gleam glint glitter  shimmer shine glow radiate beam
    bloom blossom flower sprout grow thrive wilt fade
    melt thaw freeze  splash spray sprinkle trickle pour flow stream ripple ebb
    brighten darken dim soften sharpen blur focus zoom pan tilt crop frame light backlight
    enjoy love adore like cherish treasure savour relish appreciate admire notice spot discover
    arrive depart leave return head go come stay remain wait pause linger loiter linger
    open close shut lock unlock knock enter exit step walk
    carry bring take fetch deliver hand pass offer receive accept hold keep store
    laugh smile grin giggle chuckle beam blush glow
    win lose score serve volley rally putt swing pitch bat bowl catch throw kick dribble shoot dunk hit strike
  `,
  ),
  group(
    T.Prop,
    'noun',
    `
    edge tongue machine treadmill reformer leash clay paperback sandcastle cone tide air lifeguard brim
    catamaran cobblestone cobble takeaway iron railing lookout point souk captain country fair patch carousel
    tale treasure wedding string polka gala maze opera graffiti prom music spiral movie tv television show
    series episode song album playlist podcast radio concert gig band orchestra choir theatre musical ballet
    play performance recital exhibition exhibit gallery art artwork sculpture mural fresco mosaic tapestry
    boa trail closet thing object item piece detail texture surface corner side middle centre center end
    front back top bottom inside outside half part bit touch hint splash pop dash layer row line stack pile
    heap bunch handful armful basketful bucket pail jar tin can carton packet parcel package crate barrel
    sack bag pouch case box lid handle knob hook peg rack stand shelf  step stair rung rail post
    board plank log beam block brick slab tile panel pane frame rim border fringe tassel pompom pom-pom bow
    knot loop button bead sequin stud  rivet buckle clasp hook zip lace ribbon thread yarn string
    rope cord cable wire chain link ring hoop circle square triangle heart star stripe spot dot check
    shape pattern print design logo letter word sign symbol  name title label tag ticket receipt note
    card postcard invitation menu map guide book page cover spine chapter story poem  verse lyric
    photo snapshot picture portrait print poster painting drawing sketch doodle collage scrapbook album
    memory moment souvenir keepsake gift present surprise treat reward prize trophy medal ribbon award
    balloon banner bunting garland streamer confetti glitter sparkle tinsel ornament bauble decoration
    candle tealight lantern lamp bulb light torch flame fire spark ember  mist steam fog haze
    window door gate fence wall hedge path step porch stoop doorstep doorway entrance hallway stairs
    mailbox letterbox doormat welcome-mat planter flowerpot windowbox window-box trellis arbour bench
    fountain pond birdbath birdhouse statue sundial swing    trampoline hammock
    deckchair parasol umbrella awning canopy gazebo pergola tent yurt teepee hut shed greenhouse
    wheelbarrow bicycle basket helmet scooter skateboard rollerskates skis snowboard sledge sled
     suitcase backpack bag luggage trolley cart   blanket rug throw cushion pillow
    mirror vanity dresser wardrobe closet rail hanger hook drawer chest trunk box basket shelf bookcase
    desk chair stool table counter island sink tap faucet oven stove hob kettle toaster blender mixer
    pan pot frying-pan saucepan wok tray baking-tray cake-tin rolling-pin spatula ladle whisk sieve
    grater colander bowl plate dish cup mug glass jug pitcher teapot cafetiere french-press espresso-machine
    coffee-machine fridge freezer microwave dishwasher washing-machine dryer iron ironing-board laundry
    basket peg clothesline washing-line towel flannel sponge soap bubbles brush comb hairbrush hairdryer
    straighteners curlers rollers clip bobby-pin hairpin scrunchie headband tiara crown veil
    phone laptop tablet camera tripod selfie-stick headphones earbuds speaker record turntable  radio
    remote television screen projector computer keyboard mouse notebook notepad pen pencil marker
    paint brush palette easel canvas sketchbook journal planner calendar clock watch alarm timer
    book novel magazine newspaper  paperback hardback cookbook guidebook atlas map globe compass
    telescope binoculars magnifying-glass lens  candle match  matchbox firewood kindling
    campfire bonfire barbecue grill firepit fire-pit chimney fireplace hearth mantel stove log woodpile
    snowman snowball snowflake icicle igloo sledge sled skis  goggles helmet mittens earmuffs
    surfboard wetsuit paddle oar kayak canoe raft dinghy rowboat pedalo float lilo inflatable ring buoy
    net rod fishing-rod  hook tackle bucket spade shovel sandcastle moat flag windbreak windbreaker
    shell seashell starfish crab pebble rock stone driftwood seaweed coral sand dune wave foam spray
    horizon sunset sunrise sky cloud rainbow moon star stars sun sunbeam shadow silhouette reflection
  `,
  ),
  group(
    T.Place,
    'noun',
    `
    living-room dining-room sitting-room front-room back-garden front-garden kitchen-garden allotment
    country countryside fairground funfair fair carnival circus theme-park amusement-park water-park zoo
    aquarium farm stable barn meadow orchard vineyard estate ranch plantation nursery-garden garden-centre
    garden-center greenhouse hothouse marketplace arcade mall shopping-centre shopping-center department-store
    supermarket grocery grocer florist bakery  deli delicatessen cafe tearoom tea-room teahouse
    coffeehouse creamery ice-cream-parlour ice-cream-parlor parlour parlor pizzeria bistro brasserie cantina
    taverna trattoria osteria izakaya ramen-bar noodle-bar sushi-bar wine-cellar cellar speakeasy lounge
    nightclub club ballroom dancehall dance-floor dancefloor stage bandstand amphitheatre amphitheater
    arena stadium pitch court field track course green range studio gym spa salon parlour boutique
    atelier workshop studio gallery museum library archive bookshop bookstore record-shop antique-shop
    antiques vintage-shop thrift-store charity-shop flea-market market stall kiosk booth cart truck van
    office workplace desk cubicle boardroom meeting-room conference co-working  lobby reception
    foyer atrium courtyard quad cloister garden terrace patio deck veranda porch stoop balcony rooftop
    roof attic loft mezzanine landing stairwell staircase hall hallway corridor passage archway gateway
    arcade colonnade portico facade frontage entrance exit doorway threshold porch
    church chapel cathedral abbey monastery temple shrine mosque synagogue pagoda palace castle
    tower turret lighthouse windmill watermill mill bridge viaduct aqueduct canal lock dock quay wharf
    marina harbour harbor port pier jetty boardwalk promenade esplanade seafront beachfront waterfront
    riverbank riverside river stream brook creek waterfall cascade rapids spring well pond lake lagoon
    reservoir dam bay cove inlet estuary delta marsh swamp bog fen moor heath meadow field paddock pasture
    prairie plain plateau valley vale dale glen gorge canyon ravine cliff bluff crag ridge peak summit
    mountain hill knoll mound dune desert oasis savanna jungle rainforest forest wood woodland grove copse
    thicket orchard clearing glade trail track path lane road street avenue boulevard drive crescent close
    square plaza piazza circus roundabout junction crossroads crossing bridge tunnel underpass overpass
    highway motorway freeway road-trip route way pavement sidewalk kerb curb  alley alleyway mews
    courtyard backstreet side-street high-street main-street old-town town-square village-green
    cityscape skyline downtown uptown midtown suburb outskirts neighbourhood neighborhood district quarter
    waterfront harbourside dockside docklands riverside seaside coast shore beach bay headland peninsula
    island archipelago atoll reef lagoon cove strait channel sea ocean gulf
    airport airfield runway terminal gate lounge station platform concourse ticket-hall underground metro
    subway tram bus-station coach-station port ferry-terminal marina harbour
    hotel motel hostel inn guesthouse guest-house bed-and-breakfast  resort lodge chalet cabin cottage
    villa bungalow apartment flat condo penthouse studio loft townhouse house home mansion manor farmhouse
    castle palace tower treehouse houseboat boathouse beach-house  lake-house cabin
  `,
  ),
  group(
    T.Event,
    'noun',
    `
    wedding reception ceremony engagement anniversary birthday party celebration gala ball prom dance
    festival fete fair carnival parade procession concert gig recital show performance premiere opening
    launch exhibition fashion-show runway-show catwalk-show photoshoot shoot campaign event occasion
    dinner lunch brunch breakfast picnic barbecue cookout potluck tea-party garden-party pool-party
    beach-party house-party dinner-party cocktail-party christmas-party office-party leaving-party
    graduation reunion holiday vacation trip tour cruise safari expedition adventure getaway escape
    weekend break staycation  road-trip journey flight voyage commute outing stroll walk hike
    date date-night night-out girls-night night-in movie-night game-night karaoke quiz trivia
    race marathon match game tournament competition championship final class lesson workshop course
    session meeting interview presentation conference launch
  `,
  ),
  group(
    T.Descriptive,
    'adjective',
    `
    fluffy brimmed wide-brimmed botanical wrought lined mulled carved whitewashed roasted toasted baked grilled fried steamed
    fresh crispy crunchy creamy fluffy sticky juicy ripe sweet sour tangy spicy zesty savoury savory
    delicious tasty yummy gourmet homemade rich light healthy hearty warming
    cosy cozy comfy snug plush soft velvety silky smooth fuzzy furry woolly wooly knitted chunky cable
    crisp clean fresh bright airy spacious open-plan minimalist scandi industrial rustic farmhouse coastal
    modern contemporary classic vintage antique retro mid-century art-deco deco baroque gothic victorian
    georgian edwardian regency colonial tudor medieval ancient historic historical old-fashioned
    traditional cultural local foreign exotic tropical alpine nordic  urban rural suburban
     popular busy bustling lively vibrant quiet peaceful calm tranquil serene secluded remote hidden
    secret magical mystical enchanted dreamy fairytale storybook whimsical quaint charming cute lovely
    picturesque scenic panoramic breathtaking stunning spectacular dramatic majestic grand impressive
    towering tall huge massive giant enormous vast endless wide broad long narrow winding twisting steep
    rolling gentle flat level even smooth rough rocky stony pebbly sandy muddy grassy leafy mossy
    overgrown wild untamed lush green verdant blooming flowering fragrant scented perfumed aromatic
    musical rhythmic melodic acoustic electric live outdoor indoor open-air al-fresco rooftop waterside
    seaside lakeside riverside poolside fireside bedside roadside hillside countryside
    spiral circular curved arched domed vaulted pointed angled slanted sloping tiered stepped layered
    stacked piled scattered strewn dotted sprinkled draped hung hanging dangling swinging floating
    flying falling rising spinning twirling swirling flowing billowing rippling fluttering waving
    glowing shining sparkling twinkling glittering shimmering gleaming glinting flickering dancing
    colourful colorful vivid vibrant bold bright pastel muted soft neutral earthy warm cool icy frosty
    polka polka-dot dotty spotty spotted speckled striped checked checkered plaid tartan floral leafy
    country western cowboy rodeo southern northern eastern western coastal maritime nautical seafaring
    solo single lone  quiet shy  confident relaxed
    lucky happy merry jolly cheery chirpy perky peppy bouncy sprightly sunny upbeat positive
    elegant graceful poised refined polished sleek chic smart sharp dapper dashing debonair suave
    casual relaxed laid-back easy breezy effortless simple understated minimal subtle delicate dainty
    favourite favorite usual regular typical classic iconic signature go-to everyday daily weekly
    extra special particular certain whole entire complete total full empty half quarter
    able ready set eager keen willing happy glad pleased proud thankful grateful
    wooden metal metallic glass golden silver brass copper bronze marble stone concrete brick
    plastic paper cardboard leather suede velvet silk satin linen cotton woollen wool denim
    handmade handcrafted hand-painted hand-drawn hand-knitted hand-stitched bespoke tailored custom
    new brand-new used  vintage secondhand second-hand preloved pre-loved thrifted upcycled
    favourite dream perfect ideal lovely wonderful amazing fantastic fabulous gorgeous glorious
    beautiful pretty handsome stunning striking eye-catching statement bold daring fun funky quirky
    playful cheeky witty clever smart bright sunny
  `,
  ),

  // more of the same, by field (sport, home, kitchen, nature, fantasy, photography, everyday life)
  group(
    T.Prop,
    'noun',
    `
    roller foam-roller elliptical rower stepper rack cable bosu medicine-ball kettlebell shaker stopwatch
    scoreboard finish-line start-line lane hoop goal net shuttlecock puck stick paddle oar pole
    nightlight bedside heater aircon air-conditioner blind shutter floorboard hardwood wallpaper beanbag
    console controller remote jigsaw chess chessboard checkers domino dominoes card deck record-player
    wrapping tag gift-tag gift-wrap stocking-filler cracker party-hat party-popper pinata
    apron oven-mitt mixing-bowl skillet griddle casserole pie-dish cake-stand cupcake-stand doily doilies
    vanilla nutmeg ginger cardamom clove spice herb lettuce spinach kale broccoli pea bean sweetcorn potato
    sweet-potato squash zucchini courgette aubergine eggplant chilli chili grapefruit kiwi papaya plum
    nectarine date nut almond walnut pistachio peanut hazelnut seed pretzel nacho nachos hummus dip salsa
    guacamole toastie pancake crepe smoothie cappuccino flat-white cortado affogato milkshake float soda
    iced-tea lemonade limeade kombucha mocktail spritzer cocktail martini margarita champagne bubbly
    space universe comet meteor aurora constellation galaxy nebula milky-way night-sky starlight moonbeam
    icicle mud pebble boulder sea-glass rock-pool tide-pool rockpool kelp footprint track trail
    throne sceptre scepter jewel crystal-ball potion spellbook spell tarot tarot-card rune amulet talisman
    armour armor shield banner flag torch scroll quill feather inkwell candlestick goblet chalice
    hay bale hay-bale haystack scarecrow hayride corn-maze pumpkin-patch apple-picking
    light-leak vignette strobe gel seamless handheld tracking-shot freeze-frame mid-shot long-shot
    length half-length full-length three-quarter-length
    traffic double-decker dollar pound euro money cash coin life lifestyle world idea choice chance luck wish dream plan goal purpose reason sense feeling thought
    memory story moment mood vibe energy spirit soul heart mind pace rhythm beat tune melody song voice
    sound silence noise whisper laugh laughter cheer applause music dance step move routine habit ritual
    tradition culture history future past present day night today tonight weekend morning evening
    distance height size scale shape form colour color tone texture pattern detail finish quality style
    taste flavour flavor smell scent aroma fragrance perfume breath breeze air warmth heat chill cold
    comfort rest sleep nap dream wake sunrise sunset
  `,
  ),
  group(
    T.Pose,
    'verb',
    `
    crash lap mirror reflect echo tumble topple wobble teeter totter sway rock bob bounce
    skate roller-skate rollerskate ice-skate lace hike trek climb scale summit descend abseil
    snowshoe sledge toboggan sled ski snowboard surf bodyboard windsurf kitesurf paddleboard sail row kayak
    canoe raft swim dive snorkel scuba float drift sunbathe tan bask lounge laze
    wrap unwrap pack unpack fold hang iron press steam fluff plump arrange rearrange decorate adorn deck
    bake cook prep chop dice mince grate peel zest juice squeeze pour stir whisk fold beat knead roll
    shape ice frost sprinkle dust decorate plate serve dish share feed taste sample savour
    sit stand kneel crouch squat lean rest recline lie sprawl stretch curl tuck hug cradle
    shop browse haggle bargain buy pay queue wait
    text call chat scroll swipe type tap click film record snap shoot photograph capture
  `,
  ),
  group(
    T.Descriptive,
    'adjective',
    `
    stationary mirrored full-length half-length low-angle high-angle wide-angle close-cropped
    royal regal noble golden jewelled jeweled bejewelled crystal-clear icy snowcapped snow-capped
    starry starlit moonlit cosmic celestial heavenly divine angelic ethereal dreamy surreal fantasy
    mythical legendary medieval enchanted haunted spooky creepy eerie ghostly misty foggy stormy
    sporty athletic energetic dynamic powerful strong fit flexible balanced steady focused
    sweaty breathless tired exhausted refreshed energised energized hydrated
    tasty fresh warm hot cold iced chilled frozen sparkling bubbly fizzy sweet savoury salty spicy
    homemade handmade freshly-baked golden-brown crispy crunchy gooey chewy fluffy creamy rich light
    musical acoustic live loud quiet soft gentle
    lucky happy
  `,
  ),

  // a third pass: words a shopper may use that the passes above missed
  group(
    T.Prop,
    'noun',
    `
    aisle pajama pyjama pointy rocket bumblebee stargazing flare surround speedboat trailhead footprint print
    gondola lift chairlift cable-car funicular monorail rollercoaster roller-coaster ferris-wheel big-wheel
    carousel merry-go-round dodgems bumper-car arcade claw-machine candy-floss fairground ride stall prize
    skyline rooftop steeple spire dome minaret pagoda lantern paper-lantern bamboo torii shrine bonsai
    koi pond lily-pad lotus stepping-stone stepping-stones zen rock-garden sand-garden
    sunroof dashboard windscreen windshield wing-mirror steering seat-belt seatbelt road-sign signpost
    milestone lamppost streetlamp street-lamp bench bin phone-box postbox mailbox hydrant bollard kerb
    fountain statue monument obelisk archway arcade colonnade balustrade banister handrail railing 
    windowsill sill shutter awning canopy parasol umbrella sunshade windbreak deckchair lounger cabana
    hut shack beach-hut boathouse jetty pontoon buoy lighthouse harbour-wall breakwater groyne sea-wall
    seawall promenade pier boardwalk bandstand bench
    blanket throw quilt duvet comforter eiderdown pillowcase pillow-case cushion bolster headboard
    bedframe bed-frame four-poster canopy-bed daybed sofa-bed futon bunk hammock cot
    shelf  mantel mantelpiece windowsill bookshelf bookcase shelving cabinet sideboard dresser
    wardrobe armoire chest trunk ottoman footstool pouf stool barstool chair armchair recliner rocker
    swivel-chair desk-chair office-chair bench pew settle settee sofa couch chaise loveseat sectional
    lamp floor-lamp desk-lamp table-lamp lampshade chandelier pendant sconce spotlight fairy-lights
    candle candles tealight candlestick candelabra lantern hurricane-lamp oil-lamp torch flashlight
    rug runner mat doormat carpet floorboards tiles parquet laminate concrete
    curtain curtains drapes blinds shutters net-curtains voile
    plant plants houseplant fern palm monstera cactus succulent orchid bonsai herb-garden window-box
    vase jug bottle jar pot planter basket crate tray bowl dish platter board chopping-board
    cheeseboard charcuterie-board grazing-board picnic-rug hamper cool-box coolbox cooler ice-box
    flask thermos tumbler mug cup teacup saucer glass wineglass flute coupe carafe decanter pitcher
    straw stirrer napkin serviette coaster placemat tablecloth table-runner centrepiece centerpiece
    cutlery silverware fork spoon teaspoon ladle spatula whisk tongs peeler grater sieve colander
    kettle teapot cafetiere french-press moka-pot coffee-pot toaster blender mixer stand-mixer juicer
    oven stove hob grill barbecue bbq pizza-oven fire-pit firepit chiminea brazier bonfire campfire
    hotdog burger bun roll wrap sandwich panini toastie bagel pretzel croissant pastry danish
    cinnamon-roll bun brioche loaf baguette sourdough focaccia ciabatta pita naan tortilla taco
    cake cupcake muffin brownie blondie cookie biscuit shortbread scone flapjack macaron meringue
    pavlova cheesecake tart pie crumble trifle pudding mousse souffle eclair profiterole doughnut
    donut churro waffle pancake crepe french-toast
    berry strawberry raspberry blueberry blackberry cherry grape apple pear peach plum apricot mango
    pineapple papaya banana coconut melon watermelon lemon lime orange clementine tangerine grapefruit
    fig date pomegranate kiwi passionfruit passion-fruit lychee dragonfruit dragon-fruit avocado
    tomato cucumber carrot celery radish beetroot lettuce rocket arugula spinach kale cabbage
    broccoli cauliflower pea bean corn sweetcorn pepper chilli onion shallot leek garlic ginger
    potato chip crisp fry mushroom truffle olive caper pickle gherkin
    cheese brie camembert cheddar mozzarella burrata parmesan feta halloumi goat-cheese
    pasta spaghetti linguine penne ravioli lasagne lasagna gnocchi risotto paella pizza calzone
    noodle ramen udon pho soup broth stew curry dhal rice sushi sashimi bento dumpling gyoza bao
    taco burrito quesadilla enchilada nacho salsa guacamole hummus falafel kebab wrap salad
    steak roast chicken turkey ham bacon fish salmon tuna cod shrimp prawn lobster crab
    oyster mussel clam scallop calamari squid octopus caviar egg omelette frittata quiche
    bread butter jam marmalade honey syrup maple-syrup nutella peanut-butter cream yogurt yoghurt
    granola muesli cereal porridge oatmeal oats acai chia smoothie juice milk oat-milk
    coffee espresso latte cappuccino mocha americano macchiato cortado flat-white frappe frappuccino
    tea green-tea black-tea earl-grey chai matcha herbal peppermint chamomile rooibos iced-tea
    cocoa hot-chocolate marshmallow whipped-cream sprinkles
    wine red-wine white-wine rose champagne prosecco cava cocktail mocktail spritz aperol negroni
    martini margarita mojito daiquiri pina-colada sangria mimosa bellini gin gin-and-tonic tonic
    beer lager ale cider whisky whiskey rum vodka tequila sake soju punch eggnog
  `,
  ),
  group(
    T.Pose,
    'verb',
    `
    surround flare gaze stargaze sightsee tour cruise commute roam explore discover wander meander
    shelter huddle nestle perch balance lean slouch stretch reach arch twist turn pivot spin twirl
    sway swing rock wobble shimmy bop groove dance prance skip frolic gambol trot canter gallop
    splash paddle wade dip dunk float drift bob dive plunge leap hop jump bounce
    blow puff whistle hum sing chant cheer shout call laugh giggle chuckle grin smile beam wink
    sniff smell inhale breathe sigh yawn stretch wake rise
    sip gulp slurp taste nibble munch chew crunch bite eat dine feast graze snack
    toast clink cheers raise pour fill top refill serve share pass offer hand give receive
    read browse flick leaf scroll swipe type text write scribble jot doodle draw sketch paint
    knit crochet sew stitch embroider quilt weave spin craft glue fold wrap tie bow
    dress change wear don layer button zip buckle lace tie knot roll cuff tuck untuck
    wash rinse dry towel brush comb style curl straighten braid plait twist pin clip tie
    apply blend dab pat smooth spritz spray mist dust powder polish buff file
    tidy clean dust sweep mop hoover vacuum polish wipe scrub fold iron hang sort
    plant sow water prune trim mow rake dig pot repot pick harvest gather arrange
  `,
  ),
  group(
    T.Descriptive,
    'adjective',
    `
    pointy pointed frilly lacy flouncy swishy twirly swirly floaty flowy drapey boxy slouchy
    comfy cosy cozy snuggly cuddly fluffy fuzzy furry woolly knitted chunky ribbed cable-knit
    oversized roomy baggy loose relaxed fitted tailored structured sharp crisp smart neat tidy
    glam glamorous glitzy glittery sparkly shimmery shiny sequinned sequined metallic iridescent
    pearly opalescent holographic neon fluorescent bright bold vivid saturated pastel soft muted
    dusty faded washed-out sun-bleached weathered worn-in distressed vintage retro antique
    classic timeless chic elegant sophisticated polished refined luxe luxurious lavish opulent
    simple minimal minimalist clean sleek modern contemporary futuristic space-age sci-fi
    boho bohemian hippie hippy festival folk folky rustic country western prairie cottage cottagecore
    coastal nautical seaside beachy tropical island summery breezy airy light fresh
    autumnal wintry festive christmassy spooky gothic dark moody dramatic cinematic theatrical
    romantic dreamy whimsical fairytale magical enchanted ethereal celestial mystical otherworldly
    playful cheeky fun quirky kooky zany goofy silly cute sweet charming lovely pretty beautiful
    flirty sassy confident bold fierce strong powerful fearless brave daring adventurous
    calm serene peaceful tranquil relaxed mellow chilled laid-back easygoing carefree happy
    joyful cheerful upbeat sunny bright radiant glowing beaming smiling laughing
    wistful pensive thoughtful dreamy nostalgic melancholy moody sad lonely quiet shy reserved
    elegant graceful poised regal statuesque sculptural architectural geometric abstract artistic
    surrounded flared flaring surrounding overlooking looking facing
  `,
  ),
  // who the user is in the picture: roles, jobs and costumes
  group(
    T.Self,
    'noun',
    `
    barista waitress waiter bartender server host hostess chef cook baker pastry-chef butcher florist
    gardener farmer rancher fisherman fisherwoman lumberjack forester ranger park-ranger lifeguard
    librarian bookseller shopkeeper scientist astronaut pilot flight-attendant stewardess captain
    sailor skipper firefighter fireman firewoman nurse doctor vet paramedic detective spy agent
    secret-agent ninja knight viking pirate cowboy cowgirl explorer adventurer archaeologist
    athlete player sportswoman sportsman golfer gymnast boxer wrestler fencer skater surfer skier
    snowboarder climber cyclist runner sprinter swimmer diver sailor rower paddler yogi dancer ballerina
    musician drummer guitarist pianist violinist cellist singer dj rockstar popstar performer
    magician clown acrobat juggler ringmaster trapeze-artist aerialist stuntwoman
    photographer filmmaker director journalist reporter writer author poet painter artist sculptor potter
    designer stylist tailor seamstress model supermodel muse icon diva queen princess empress duchess
    countess lady heroine villainess witch sorceress enchantress fairy mermaid elf goddess angel
    traveller traveler tourist backpacker hiker camper nomad wanderer local guest visitor
    shopper commuter worker boss ceo entrepreneur businesswoman businessman professional office-worker
    crowd crowded player
  `,
  ),
];

/**
 * The fifth pass (issue 31): words of a fresh corpus (film looks, weather, make-up, idioms) and of
 * the catalogue, the units that make a number a measurement (numbers.ts), and words with a digit.
 */
export const EVERYDAY_WORDS_FIFTH_PASS: readonly VocabularyGroup[] = [
  group(
    T.Number,
    'noun',
    `
    inch mm cm km kg kilo lb ft pm percent denier mph kph fps megapixel degree celsius fahrenheit carat karat
    storey millimetre millimeter centimetre centimeter metre meter kilometre kilometer
  `,
  ),
  group(T.Number, 'fixed', "lbs kgs o'clock oclock y2k 3d"),
  group(
    T.Descriptive,
    'fixed',
    `
    disposable graphic false luxury cobbled crackling aged teak cushioned ornate low-slung
  `,
  ),
  group(T.Photography, 'noun', 'paparazzi seating job interview bombshell'),
  group(T.Prop, 'noun', 'jukebox victory bobble bobble-hat streak ramp sash trend character camcorder vhs'),
  group(T.Descriptive, 'fixed', 'sizzling scorching anamorphic'),
  group(T.Pose, 'verb', 'impress own part'),
  group(T.Pose, 'fixed', 'astride'),
  group(T.Descriptive, 'adjective', 'floppy'),
  // undoing a garment: known words, so the context rules judge them ("bikini top untied", "the zip bursting open")
  group(T.Pose, 'verb', 'slay break unbutton untie unclip unhook unzip undo burst'),
];

/** Everyday phrases whose words are refused alone. */
export const EVERYDAY_PHRASES: readonly VocabularyPhrase[] = [
  phrases(
    T.Prop,
    `
    dressed to kill | killer heels | drop dead gorgeous | drop-dead gorgeous | close up | close-up shot |
    ice cream | ice cream cone | hot chocolate | hot dog | sun hat | straw hat | feather boa | string lights |
    fairy lights | ball gown | ball gowns | polka dot | polka dots | wrought iron | treasure map |
    al fresco | assassin's creed | exposed brick | exposed brick wall | exposed beams | living room | shoulder blade | shoulder blades | hot air balloon | hot-air balloon | northern lights |
    depth of field | rule of thirds | crystal ball | hay bale | roller skates | roller skating | roller skate |
    foam roller | jack o lantern | jack-o-lantern | fish and chips | corn maze | chaise longue | chaise lounge |
    ferris wheel | merry go round | cable car | pina colada | gin and tonic | french toast | walk in closet
  `,
  ),
  // idioms whose words are refused alone (each also an allowed phrase of the block lists)
  phrases(
    T.Expression,
    `
    killing it | killed it | kill it | kills it | knocking them dead | knock them dead | knocks them dead |
    stealing the show | steal the show | stole the show | steals the show | on cloud nine | cloud nine |
    to the nines | high five | high fives | fire pit | fire pits | photo strip | photo booth strip |
    hole in one | the 18th hole | rain shower | rain showers | sun shower | sun showers | meteor shower |
    meteor showers | light shower | passing shower | april showers | bridal shower | bridal showers |
    killer look | killer outfit | killer smile | killer style | smoking hot | bang on trend | having a blast |
    had a blast | dead of winter | barely-there make-up | barely-there makeup | barely there make-up |
    barely there makeup
  `,
  ),
];

import { group, phrases, VocabularyTag as T, type VocabularyGroup, type VocabularyPhrase } from './vocabulary.types';

/**
 * Places, rooms, furniture, nature and vehicles. Left out on purpose: school words (school,
 * classroom, playground, locker, campus, dorm, nursery), bathroom fixtures that imply nudity (shower,
 * bath, bathtub, sauna), "pole", "strip club" words, and anything prison- or war-like.
 */
export const PLACE_WORDS: readonly VocabularyGroup[] = [
  group(
    T.Place,
    'noun',
    `
    place spot location setting scene scenery view landscape horizon vista panorama outdoors nature wilderness
    countryside outback beach shore seashore coast coastline seaside sea ocean bay cove lagoon harbour harbor
    marina pier dock jetty boardwalk promenade waterfront sand dune cliff rock cave grotto island islet reef
    wave surf tide shoreline sandbank sandbar seafront esplanade lake river stream creek brook pond waterfall
    falls spring fountain pool poolside canal riverbank riverside lakeside lakeshore waterside mountain hill
    hillside hilltop mountainside mountaintop valley canyon gorge peak summit ridge slope plateau glacier
    volcano crater trail path pathway footpath track road lane street avenue boulevard alley alleyway sidewalk
    pavement crosswalk crossing intersection corner square plaza piazza courtyard market marketplace bazaar
    mall boutique store shop storefront shopfront window showroom gallery museum library bookshop bookstore
    cafe coffeehouse coffeeshop bakery patisserie bistro brasserie restaurant diner trattoria bar pub tavern
    lounge rooftop terrace balcony veranda porch patio deck garden yard backyard courtyard lawn meadow field
    farm farmhouse barn orchard vineyard winery greenhouse conservatory park forest wood woods woodland
    jungle rainforest grove glade clearing desert oasis savanna savannah prairie tundra steppe countryside
    village town city downtown uptown suburb neighbourhood neighborhood district quarter skyline skyscraper
    tower building apartment flat loft penthouse studio house home cottage cabin chalet lodge villa mansion
    castle palace manor estate chateau hotel motel inn resort spa hostel campsite camp campground tent
    caravan bungalow hut treehouse lighthouse windmill bridge tunnel station platform airport runway
    terminal gate harbour port skatepark rink stadium arena court pitch racetrack racecourse golf course
    ballroom theatre theater stage backstage cinema concert festival club nightclub disco casino venue hall
    church chapel cathedral temple shrine ruins monument statue landmark fountain observatory planetarium
    aquarium zoo safari farmers-market flea-market fairground funfair carnival pier arcade bowling-alley
    marketplace high-street main-street kiosk stall booth tram-stop bus-stop gas-station petrol-station
    laundromat launderette salon barbershop studio atelier workshop warehouse factory office lobby foyer
    reception elevator lift escalator staircase stairwell rooftop-bar cocktail-bar wine-bar speakeasy
    greenhouse orangery pergola gazebo arbour arbor bandstand boathouse jetty quay wharf dockside
    oceanfront beachfront lakefront clifftop cliffside hilltop roadside wayside woodland heath moor moorland
    marsh wetland fen swamp bayou delta estuary fjord glacier iceberg tundra steppe mesa butte badlands
    vineyard olive-grove lavender-field sunflower-field tulip-field poppy-field wheat-field cornfield
    rice-terrace tea-plantation plantation ranch rodeo paddock stable meadow pasture
    spa poolside cabana lido waterpark
  `,
  ),
  group(
    T.Room,
    'noun',
    `
    room bedroom kitchen hallway hall corridor staircase stairs stairway steps step landing attic basement
    cellar garage office workspace study closet wardrobe dressing-room walk-in bathroom laundry gym
    conservatory pantry larder porch sunroom lounge den library nook alcove loft suite mudroom
    kitchenette living-room dining-room sitting-room drawing-room guest-room spare-room utility
    entrance entryway doorway threshold archway arch column pillar wall floor ceiling window windowsill
    sill corner fireplace hearth mantel mantelpiece staircase banister balustrade railing rail landing
    vanity fitting-room changing-room studio set backdrop
  `,
  ),
  group(
    T.Furniture,
    'noun',
    `
    bed sofa couch armchair chair stool barstool bench hammock swing chaise chaise-longue daybed ottoman
    pouf footstool cushion pillow blanket throw duvet quilt comforter sheet bedsheet bedspread mattress
    headboard canopy four-poster table desk counter countertop worktop island shelf bookshelf bookcase
    cabinet cupboard dresser vanity mirror curtain drape blind shutter door rug carpet mat tile parquet
    chandelier lamp lantern candle candlestick candelabra radiator stove oven hob fridge sink tap kettle
    toaster dishwasher hot-tub jacuzzi deckchair lounger sunbed beanbag futon sideboard console bench
    armoire chest trunk suitcase coat-rack coat-stand hanger rail clothes-rail wardrobe easel piano
    record-player gramophone bookend vase frame painting poster print plant pot planter basket crate
    ladder stepladder tray trolley cart bar-cart cabinet nightstand bedside-table coffee-table side-table
    dining-table picnic-table bistro-table deck-chair rocking-chair wingback recliner loveseat settee
    chesterfield sectional window-seat bay-window skylight fireplace woodburner log-burner stove
  `,
  ),
  group(
    T.Nature,
    'noun',
    `
    nature sky cloud star moon sun planet galaxy sunrise sunset horizon earth ground soil dirt mud sand
    pebble stone rock boulder shell seashell seaweed driftwood coral wave water ice snow frost dew
    grass lawn moss fern ivy vine leaf branch twig trunk bark root tree palm pine oak birch willow maple
    cherry-blossom blossom bloom flower petal bud hedge bush shrub bamboo reed rush lily-pad wildflower
    meadow field flowerbed bouquet garland wreath garden orchard forest wood
  `,
  ),
  group(
    T.Vehicle,
    'noun',
    `
    car convertible limo limousine taxi cab bus tram train subway metro underground carriage boat sailboat
    yacht ship ferry cruise gondola canoe kayak paddleboard surfboard bicycle bike tandem scooter vespa
    moped motorcycle motorbike jeep truck pickup van campervan camper caravan plane airplane aeroplane jet
    helicopter balloon hot-air-balloon cable-car funicular rickshaw tuk-tuk horse carriage cart sled sledge
    sleigh toboggan skateboard rollerskates rollerblades skis snowboard wheel steering-wheel bonnet hood
    dashboard seat deck cabin cockpit
  `,
  ),
];

/** Place words that need a second word. */
export const PLACE_PHRASES: readonly VocabularyPhrase[] = [
  phrases(
    T.Place,
    `
    hot tub | master bedroom | master suite | infinity pool | swimming pool | pool deck | sun deck |
    rooftop pool | roof terrace | beach club | beach bar | beach hut | tiki bar | ice rink | ski slope |
    ski lodge | ski resort | train station | bus stop | phone box | phone booth | red carpet | green room |
    photo booth | flower market | night market | christmas market | farmers market | flea market |
    street market | food truck | food market | bowling alley | arcade | car boot sale | garden party |
    dinner party | cocktail party | pool party | beach party | pajama party | pyjama party | tea party |
    house party | rooftop party | new year's eve | new years eve | new year's day | valentine's day |
    mother's day | st patrick's day | fourth of july | independence day | bonfire night | guy fawkes night |
    day of the week | high street | main street | fitting room | changing room | walk-in closet |
    window seat | bay window
  `,
  ),
];

/**
 * Cities, countries, regions and landmarks that are not also common first or last names, so a
 * capitalised name here is a place. Places that ARE common first names (Sydney, Florence,
 * Victoria, Georgia, Chelsea, Brooklyn, Paris, London...) are in PERSON_LIKE_PLACE_NAMES instead.
 */
export const PLACE_NAMES: readonly VocabularyGroup[] = [
  group(
    T.PlaceName,
    'fixed',
    `
    tokyo kyoto osaka seoul busan bangkok singapore bali ubud jakarta hanoi saigon manila taipei shanghai
    beijing hongkong dubai doha marrakech marrakesh casablanca cairo istanbul cappadocia athens santorini
    mykonos crete corfu rhodes positano amalfi sorrento ravello naples rome verona tuscany
    pisa lucca bologna turin sicily sardinia puglia portofino monaco nice cannes
    provence marseille lyon bordeaux normandy brittany champagne burgundy alsace biarritz corsica madrid
    barcelona seville granada valencia malaga ibiza mallorca majorca menorca tenerife lanzarote canaries
    lisbon porto algarve madeira azores amsterdam rotterdam utrecht bruges brussels antwerp ghent
    holland netherlands copenhagen stockholm oslo helsinki reykjavik iceland norway sweden finland denmark lapland bergen
    edinburgh glasgow dublin galway cork belfast cardiff wales scotland england britain uk
    cornwall devon essex kent sussex surrey scunthorpe cotswolds yorkshire highlands brighton oxford cambridge manchester
    liverpool munich hamburg cologne frankfurt salzburg prague budapest krakow warsaw
    zurich lucerne zermatt interlaken alps dolomites tyrol bavaria croatia dubrovnik split hvar
    montenegro slovenia ljubljana bled malta cyprus morocco egypt tunisia petra zanzibar
    tanzania seychelles mauritius maldives madagascar namibia botswana capetown johannesburg safari
    sahara goa kerala rajasthan jaipur udaipur mumbai delhi agra nepal kathmandu himalayas bhutan
    srilanka thailand phuket krabi vietnam cambodia laos myanmar malaysia indonesia philippines palawan
    japan korea china taiwan mongolia australia melbourne brisbane perth queensland tasmania bondi
    newzealand auckland queenstown fiji tahiti bora-bora hawaii maui oahu honolulu waikiki alaska
    california malibu hollywood manhattan soho tribeca harlem chicago boston miami seattle portland
    nashville memphis orleans texas vegas arizona utah colorado yosemite yellowstone florida keys
    hamptons vermont maine napa sonoma tahoe canada toronto vancouver montreal quebec banff
    mexico tulum cancun oaxaca havana cuba jamaica bahamas barbados aruba bermuda caribbean
    panama colombia cartagena peru cusco bolivia chile patagonia argentina
    brazil rio copacabana ipanema uruguay ecuador galapagos antarctica arctic mediterranean aegean
    adriatic atlantic pacific riviera scandinavia europe africa america
    eiffel louvre montmartre seine thames colosseum trevi vatican pantheon acropolis parthenon oia
    sagrada alhambra neuschwanstein angkor fuji shibuya shinjuku harajuku ginza gyeongbokgung
    namsan broadway niagara
    french italian spanish portuguese greek english british scottish irish welsh german austrian swiss
    dutch belgian danish swedish norwegian finnish icelandic nordic scandinavian european parisian roman
    venetian tuscan sicilian provencal andalusian moroccan egyptian turkish arabian persian indian balinese
    thai japanese korean chinese vietnamese hawaiian tropical american californian texan mexican cuban
    caribbean brazilian latin mediterranean alpine aegean
  `,
  ),
];

/** Landmarks and places of several words. */
export const PLACE_NAME_PHRASES: readonly VocabularyPhrase[] = [
  phrases(
    T.PlaceName,
    `
    eiffel tower | arc de triomphe | notre dame | champs elysees | sacre coeur | mont saint michel |
    cote d'azur | french riviera | italian riviera | amalfi coast | lake como | cinque terre | trevi fountain |
    spanish steps | leaning tower | st mark's square | rialto bridge | sagrada familia | park guell |
    big ben | tower bridge | london eye | buckingham palace | notting hill | covent garden | hyde park |
    times square | central park | brooklyn bridge | fifth avenue | statue of liberty | empire state building |
    golden gate bridge | hollywood sign | venice beach | santa monica | palm springs | las vegas | los angeles |
    san francisco | san diego | new york | new orleans | new zealand | sri lanka | cape town | hong kong |
    kuala lumpur | ho chi minh city | mount fuji | taj mahal | machu picchu | great wall | grand canyon |
    niagara falls | northern lights | blue lagoon | dead sea | red sea | great barrier reef | bondi beach |
    whitehaven beach | copacabana beach | bora bora | st tropez | saint tropez | st barts | lake tahoe |
    lake district | cape cod | martha's vineyard | the hamptons | puerto rico | costa rica | buenos aires |
    rio de janeiro | mexico city | south africa | united states | united kingdom | swiss alps | french alps |
    scottish highlands | outer banks | florida keys | key west | route sixty-six
  `,
  ),
];

/**
 * Places that are also common first names ("posing with Sydney" is a person). They are allowed
 * only where a place is meant: after "in", "at", "near", "to", "from", "over", "across",
 * "around", "through", "of", "visiting", "exploring" and the like (context-rules.data.ts). Paris is
 * here because of the category hint "a cobblestone street in Paris".
 */
export const PERSON_LIKE_PLACE_NAMES: readonly string[] = [
  'paris',
  'london',
  'sydney',
  'florence',
  'victoria',
  'georgia',
  'chelsea',
  'brooklyn',
  'austin',
  'dallas',
  'madison',
  'phoenix',
  'savannah',
  'charlotte',
  'virginia',
  'carolina',
  'dakota',
  'montana',
  'nevada',
  'orlando',
  'houston',
  'denver',
  'aspen',
  'milan',
  'vienna',
  'sofia',
  'adelaide',
  'lourdes',
  'santiago',
  'siena',
  'venice',
  'india',
  'asia',
  'jordan',
  'kenya',
  'ireland',
  'berlin',
  'york',
  'lima',
  'geneva',
  'capri',
];

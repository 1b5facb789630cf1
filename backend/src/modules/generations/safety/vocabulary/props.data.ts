import { group, phrases, VocabularyTag as T, type VocabularyGroup, type VocabularyPhrase } from './vocabulary.types';

/**
 * Props, food and drink, animals and plants. Left out on purpose: weapons (knife, gun, sword,
 * dagger, axe, razor, blade, scissors), drugs, pills, cigarettes, handcuffs, rope words for
 * binding (rope stays for "jump rope" and "rope swing", judged in context), toys (sex toy), dolls,
 * lollipops, pacifiers, school things (lunchbox, pencil case, schoolbag).
 */
export const PROP_WORDS: readonly VocabularyGroup[] = [
  group(
    T.Prop,
    'noun',
    `
    book novel magazine newspaper paper journal notebook sketchbook diary planner pen pencil crayon brush
    paintbrush easel canvas palette letter envelope postcard map guidebook camera phone smartphone laptop
    tablet headphones record guitar piano keyboard violin cello ukulele harp flute saxophone trumpet drum
    microphone mic speaker radio candle lantern lamp lights string-lights fairy-lights vase bouquet bunch
    basket picnic-basket hamper blanket picnic-blanket rug cushion pillow throw towel beach-towel
    umbrella parasol suitcase luggage passport ticket boarding-pass map compass binoculars telescope
    yoga-mat mat block strap bolster dumbbell kettlebell barbell weights weight plate bench resistance-band
    band rope jump-rope skipping-rope ball beach-ball football basketball volleyball tennis-ball racket
    racquet bat club golf-club frisbee kite balloon bubble bubbles confetti streamer streamers sparkler
    firework fireworks gift present box ribbon wrapping-paper ornament bauble tinsel stocking mistletoe
    wreath snowglobe snow-globe sled sledge snowball snowman helmet water-bottle bottle flask thermos cup
    mug glass tumbler teacup teapot saucer jug pitcher carafe decanter tray platter plate bowl dish spoon
    fork chopsticks napkin tablecloth menu straw ice-cube sunscreen sunglasses fan hand-fan mirror
    hand-mirror compact comb hairbrush hairdryer hair-dryer curling-iron straightener towel robe key keys
    lock door handle railing fence gate sign signpost lamppost bollard bench statue fountain
    flag banner poster painting frame photo photograph polaroid album scrapbook calendar clock alarm-clock
    hourglass globe atlas chessboard chess cards board-game puzzle jigsaw marbles record-player
    gramophone typewriter sewing-machine knitting-needles yarn wool thread fabric tape
    ribbon twine paper-bag shopping-bag carrier-bag box hatbox gift-box jewellery-box trinket souvenir
    wand broom pumpkin lantern jack-o-lantern cauldron candle candelabra chandelier disco-ball
    mirrorball mirror-ball microphone spotlight stage curtain
    surfboard paddleboard bodyboard snorkel goggles flippers fins life-jacket buoy inflatable pool-float
    lilo rubber-ring float flamingo unicorn-float hammock deckchair sunbed lounger cabana parasol
    tent sleeping-bag campfire fire firepit fire-pit log logs marshmallow marshmallows stick lantern torch
    flashlight backpack rucksack map trail-map walking-stick hiking-pole skis snowboard sled
    skates rollerskates scooter bicycle bike basket helmet trolley cart wheelbarrow
    watering-can trowel spade shovel rake pot planter seed seeds seedling hose sprinkler
    laptop notebook pen coffee-cup desk chair monitor keyboard mouse headset
  `,
  ),
  group(
    T.Food,
    'noun',
    `
    food drink coffee espresso latte cappuccino americano macchiato mocha frappe iced-coffee tea matcha chai
    herbal-tea cocoa hot-chocolate chocolate juice lemonade smoothie milkshake shake soda water sparkling-water
    wine champagne prosecco cava rose cocktail mocktail martini margarita mojito negroni spritz aperol
    sangria mimosa bellini daiquiri cosmopolitan beer cider ale lager whiskey whisky gin tonic rum vodka
    sake punch eggnog mulled-wine toast croissant pastry cake cupcake cookie biscuit donut doughnut macaron
    pancake waffle crepe toast bread baguette sourdough bagel muffin scone brioche sandwich salad soup stew
    fruit strawberry cherry apple pear peach mango pineapple watermelon melon lemon lime orange grape
    banana coconut berry blueberry raspberry blackberry fig avocado tomato cucumber carrot pepper onion
    garlic vegetable veggie herb basil mint rosemary lavender pasta pizza spaghetti noodle ramen sushi taco
    burrito burger fries chips popcorn candy sweets chocolate truffle ice-cream icecream gelato popsicle
    ice-lolly sorbet honey jam butter cheese cracker olive oil bread picnic brunch breakfast lunch dinner
    supper meal feast snack dessert pudding pie tart crumble trifle fondue charcuterie tapas mezze dumpling
    curry rice paella risotto shiitake mushroom steak fish shrimp prawn lobster oyster crab seafood egg
    omelette bacon yogurt yoghurt granola cereal porridge oatmeal acai smoothie-bowl fruit-salad
    marshmallow candyfloss candy-floss cotton-candy gingerbread mince-pie turkey roast stuffing cranberry
    pumpkin-pie pumpkin-spice cinnamon-roll churro churros cannoli tiramisu gelato espresso-martini
    cocktail-glass wine-glass champagne-glass flute coupe ice ice-cubes lemon-slice garnish
    cream whipped-cream sprinkles frosting icing sugar salt spice flour dough batter
  `,
  ),
  group(
    T.Animal,
    'noun',
    `
    animal pet dog puppy cat kitten horse pony foal bird parrot owl eagle hawk swan duck goose dove pigeon
    seagull gull flamingo peacock chicken hen rooster fish goldfish dolphin whale turtle seal otter deer
    fawn rabbit bunny hare squirrel hedgehog fox butterfly bee ladybird ladybug dragonfly firefly
    fireflies camel elephant giraffe zebra lion tiger leopard cheetah panda koala kangaroo sheep lamb
    goat cow calf alpaca llama donkey pig piglet puppy kitten poodle labrador retriever corgi dachshund
    spaniel terrier pug chihuahua husky collie greyhound whippet
  `,
  ),
  group(
    T.Plant,
    'noun',
    `
    flower blossom bloom petal bouquet posy rose tulip sunflower daisy lily peony orchid lavender
    wildflower poppy daffodil bluebell hydrangea magnolia jasmine lilac wisteria bougainvillea hibiscus
    cherry-blossom sakura lotus iris violet marigold carnation chrysanthemum dahlia gardenia camellia
    protea eucalyptus fern ivy moss succulent cactus palm palm-tree olive-tree lemon-tree orange-tree
    pine fir spruce oak birch willow maple cedar cypress bamboo reed grass hay straw wheat corn
    leaf foliage greenery vine branch twig plant houseplant monstera pampas pampas-grass dried-flowers
    heather thistle clover dandelion buttercup forget-me-not holly mistletoe pumpkin gourd pinecone
    acorn conker berries
  `,
  ),
  group(
    T.Photography,
    'noun',
    `
    photo photograph photography photoshoot shoot shot snapshot picture pic image portrait selfie headshot
    close-up closeup wide-shot full-length full-body half-body waist-up three-quarter candid editorial
    campaign lookbook catalogue catalog magazine cover fashion modelling modeling runway catwalk film
    analog analogue polaroid grain bokeh blur motion-blur focus depth lens camera angle frame framing
    composition background foreground backdrop set scene lighting contrast exposure flash softbox
    reflector tripod monochrome black-and-white sepia cinematic studio perspective viewpoint view
    overhead aerial drone wide-angle telephoto portrait-mode slow-motion slo-mo video clip reel
    timelapse time-lapse sequence frame movement style aesthetic filter edit mood-board moodboard
    vogue instagram pinterest magazine-cover editorial-style street-style fashion-week pose
    symmetry symmetrical thirds rule-of-thirds eye-level low-angle high-angle bird's-eye worm's-eye
    dutch-angle tilt-shift long-exposure double-exposure silhouette backlighting side-lighting rim-light
    natural-light available-light studio-lighting ring-light golden-hour-light mirror-selfie
  `,
  ),
  group(
    T.Photography,
    'adjective',
    `
    realistic photorealistic hyperrealistic lifelike detailed sharp crisp clean blurry blurred grainy
    cinematic editorial candid posed unposed natural soft-focus out-of-focus in-focus high-contrast
    low-contrast overexposed underexposed vertical horizontal landscape square panoramic
  `,
  ),
];

export const PROP_PHRASES: readonly VocabularyPhrase[] = [
  phrases(
    T.Prop,
    `
    teddy bear | rope swing | tyre swing | tire swing | porch swing | hot water bottle | picnic blanket
  `,
  ),
];

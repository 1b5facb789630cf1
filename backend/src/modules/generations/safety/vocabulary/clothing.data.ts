import { group, phrases, VocabularyTag as T, type VocabularyGroup, type VocabularyPhrase } from './vocabulary.types';

/**
 * Clothing, accessories, hair and make-up, colours, patterns and materials. The tags say what a
 * garment covers, for the context rules ("no <garment>", "taking off <garment>", "nude <garment>").
 *
 * Left out on purpose: thong, g-string, micro, monokini, pasties, fishnet,
 * latex, pvc, vinyl, catsuit, harness, collar-and-leash words, diaper, pacifier, bib, school
 * uniform words (blazer stays: it is an office jacket), cheerleader, "schoolgirl", burlesque,
 * boudoir, plunging, low-cut, see-through, transparent, translucent.
 */
export const CLOTHING_WORDS: readonly VocabularyGroup[] = [
  group(
    T.Garment,
    'noun',
    `
    clothes clothing outfit look ensemble layer layers garment wardrobe attire
    top shirt t-shirt tee tank tank-top camisole cami blouse tunic sweater jumper pullover cardigan hoodie
    sweatshirt crop-top croptop polo turtleneck rollneck roll-neck halter halterneck halter-top tube-top
    henley jersey shrug bolero vest waistcoat corset-top bustier-top peplum button-down button-up
    shirtdress t-shirt-dress
    skirt miniskirt mini-skirt maxi maxi-skirt midi midi-skirt pencil-skirt tennis-skirt wrap-skirt
    dress gown frock sundress minidress mini-dress maxidress maxi-dress midi-dress slip-dress wrap-dress
    shift-dress tea-dress sweater-dress ballgown ball-gown evening-gown cocktail-dress jumpsuit romper
    playsuit overalls dungarees suit pantsuit trouser-suit tuxedo tux kaftan caftan kimono sari saree
    abaya qipao cheongsam hanbok dirndl poncho cape cloak shawl wrap stole pashmina
    coat jacket blazer trench trench-coat raincoat mac parka puffer anorak windbreaker gilet bomber
    overcoat peacoat duster shacket denim-jacket leather-jacket biker-jacket jean-jacket fur faux-fur
    tracksuit onesie leotard unitard apron skirt tutu
  `,
  ),
  group(
    T.GarmentPart,
    'noun',
    `
    sleeve cuff collar hem hemline neckline waistband pocket button zip zipper belt-loop lapel hood train bodice
    strap ruffle frill bow trim lining seam
  `,
  ),
  group(
    T.Bottoms,
    'noun',
    `
    pants trousers jeans denim leggings joggers sweatpants trackpants track-pants tracksuit-bottoms shorts
    culottes chinos cargos cargo-pants capris skort flares bootcut palazzo palazzo-pants wide-leg
    cycling-shorts bike-shorts running-shorts denim-shorts cutoffs
  `,
  ),
  group(
    T.Garment,
    'noun',
    `
    pants trousers jeans leggings joggers sweatpants trackpants shorts culottes chinos cargos capris skort
    flares cutoffs
  `,
  ),
  group(
    T.Underwear,
    'noun',
    `
    lingerie bra bralette underwear briefs boyshorts hipsters garter garter-belt suspender-belt stockings
    hold-ups corset bustier basque teddy bodysuit slip camisole chemise negligee babydoll lace-set
    lingerie-set sports-bra
  `,
  ),
  group(
    T.Swimwear,
    'noun',
    `
    swimsuit bikini tankini one-piece swimwear bathing-suit swimming-costume cover-up coverup sarong
    rash-guard rashguard boardshorts trunks swim-trunks wetsuit bikini-top kaftan beachwear
  `,
  ),
  group(
    T.Sleepwear,
    'noun',
    `
    pajamas pyjamas pjs pj's jammies nightgown nightdress nightie nightshirt robe bathrobe dressing-gown
    housecoat loungewear sleepwear nightwear sleep-mask eye-mask slippers onesie sleep-shirt
  `,
  ),
  group(
    T.Footwear,
    'noun',
    `
    shoes shoe heels heel pumps pump stilettos stiletto sandals sandal flats ballet-flats loafers mules
    slingbacks wedges boots boot booties ankle-boots knee-high-boots thigh-high-boots over-the-knee-boots
    wellies wellingtons rain-boots cowboy-boots combat-boots hiking-boots chelsea-boots sneakers trainers
    runners espadrilles flip-flops sliders slides clogs slippers socks sock tights pantyhose hosiery
    leg-warmers legwarmers kitten-heels platforms platform-shoes brogues oxfords moccasins jelly-shoes
    ski-boots ice-skates roller-skates cleats spikes laces shoelaces
  `,
  ),
  group(
    T.Accessory,
    'noun',
    `
    accessory accessories hat cap beanie beret fedora sunhat sun-hat bucket-hat straw-hat visor headband
    hairband scarf bandana headscarf turban gloves glove mittens belt bag handbag purse clutch tote
    backpack rucksack satchel basket wallet umbrella parasol fan sunglasses glasses spectacles shades
    watch earbuds headphones earphones hair-clip claw-clip clip scrunchie bow ribbon tie necktie bowtie
    bow-tie pin brooch mask veil crown tiara wreath flower-crown garland lei fascinator headpiece
    cowboy-hat boater cloche trilby panama beanie balaclava earmuffs shawl stole cape handkerchief
    lanyard keychain phone-case tote-bag crossbody bum-bag fanny-pack duffel holdall luggage suitcase
    corsage boutonniere buttonhole suspenders cufflinks
  `,
  ),
  group(
    T.Jewellery,
    'noun',
    `
    jewellery jewelry necklace choker pendant locket chain earring hoop stud bracelet bangle anklet ring
    watch pearl diamond gem gemstone bead charm brooch cuff tiara crown signet-ring engagement-ring
    wedding-ring
  `,
  ),
  group(
    T.Beauty,
    'noun',
    `
    makeup make-up lipstick lip-gloss lipgloss gloss liner lip-liner eyeliner eyeshadow mascara blush
    bronzer highlighter foundation concealer powder nail-polish polish varnish manicure pedicure nails
    perfume fragrance glitter hairstyle hairdo haircut blowout blow-dry curls waves braids ponytail bun
    updo topknot top-knot chignon fringe bangs bob pixie pixie-cut lob layers highlights balayage ombre
    space-buns french-braid fishtail fishtail-braid cornrows locs dreadlocks afro twist twists extensions
    wig headwrap lashes false-lashes brows skincare serum moisturiser moisturizer face-mask sheet-mask
    sunscreen sunblock sun-cream tan fake-tan self-tan freckles beauty-spot red-lips smoky-eye
    cat-eye winged-liner glow dewy-skin no-makeup
  `,
  ),
  group(
    T.Costume,
    'noun',
    `
    costume fancy-dress cosplay fairy witch wizard vampire mermaid pirate princess prince queen king knight
    angel devil superhero hero heroine villain clown cowboy cowgirl sailor pilot astronaut nurse doctor chef
    maid flapper pinup pin-up ballerina goddess elf unicorn dragon dinosaur robot alien ghost pumpkin cat
    bunny fox tiger leopard bee ladybug ladybird butterfly flower wings halo horns tail ears whiskers cape
    crown tiara wand broom broomstick cauldron spider web cobweb candy-cane gingerbread reindeer antlers
    snowman santa-hat elf-hat toga viking genie jester harlequin matador flamenco-dancer
    hula-dancer mime ringmaster magician fortune-teller hippie hippy disco-queen rockstar
    rock-star popstar pop-star superstar
  `,
  ),
  // fixed: colours take no -er/-est ("oliver" and "asher" are names); "darker", "paler" come from the describing words
  group(
    T.Colour,
    'fixed',
    `
    red orange yellow green blue purple pink white black grey gray brown beige cream ivory tan camel khaki
    olive mint sage emerald jade teal turquoise aqua cyan navy cobalt indigo violet lavender lilac mauve
    plum burgundy maroon wine crimson scarlet cherry ruby coral peach apricot salmon rust terracotta mustard
    gold golden silver bronze copper champagne metallic neon pastel blush taupe charcoal slate ecru sand
    stone chocolate caramel honey cinnamon espresso mocha chestnut auburn blonde blond brunette redhead
    platinum ash fuchsia magenta rose rosy dusty pale light dark deep bright vivid muted bold rich
    off-white cream-coloured cream-colored sky-blue powder-blue royal-blue electric-blue
    navy-blue bottle-green forest-green olive-green lime lime-green sea-green hot-pink bubblegum-pink
    dusty-pink blush-pink pale-pink neon-pink rose-gold jet-black pitch-black snow-white pearl-white
    colour color colours colors shade tone hue tint palette monochrome multicoloured multicolored
    rainbow tie-dye ombre two-tone tonal neutral earthy jewel-toned jewel-tone
  `,
  ),
  group(
    T.Pattern,
    'adjective',
    `
    floral striped stripy polka-dot dotted checked checkered chequered plaid tartan gingham houndstooth
    paisley leopard-print zebra-print animal-print snakeskin camo camouflage tie-dye sequin sequined
    sequinned glittery sparkly embroidered lace lacy ruffled ruffle pleated quilted ribbed cable-knit
    knitted crochet crocheted patterned printed solid plain smocked shirred ruched draped belted buttoned
    zipped hooded puffy puff-sleeved strapless strappy sleeveless long-sleeved short-sleeved backless
    off-the-shoulder off-shoulder one-shoulder high-waisted high-rise mid-rise low-rise v-neck scoop-neck
    square-neck sweetheart high-neck halterneck cowl-neck boat-neck crew-neck wrap a-line fit-and-flare
    bodycon tailored structured oversized cropped fitted loose relaxed slim skinny straight-leg wide-leg
    flared bootcut tiered layered asymmetric asymmetrical ruffle-trimmed lace-trimmed cut-out cutout
    slit split side-slit thigh-slit open-back low-back tie-front button-front wrap-front drop-waist
    empire-line bias-cut body-skimming figure-hugging flowy floaty billowy voluminous puffball
    quilted padded fleece-lined fur-trimmed faux-fur feathered beaded embellished studded
    print stripe stripes dot dots check checks pattern motif double-breasted single-breasted knife-pleated
  `,
  ),
  group(
    T.Material,
    'noun',
    `
    fabric material cotton linen silk satin velvet velour chiffon organza tulle lace mesh leather faux-leather
    suede denim wool cashmere knit knitwear fleece corduroy tweed jersey lycra spandex nylon polyester
    sequin sequins fur faux-fur feather feathers sherpa terry towelling flannel flannelette rubber plastic
    straw wicker rattan bamboo wood marble stone concrete brick glass metal steel iron chrome gold silver
    paper cardboard canvas ceramic porcelain crystal velveteen crepe georgette taffeta brocade jacquard
    damask muslin gauze cheesecloth broderie eyelet poplin seersucker chambray twill gabardine boucle
    mohair alpaca angora merino shearling sheepskin suede patent raffia jute hemp lurex lame
  `,
  ),
];

/**
 * The fifth pass (issue 31): the catalogue's own words (every catalogue text must be understood:
 * catalogue-texts.spec.ts), and make-up and hair words of a fresh corpus. "catsuit", "latex-look"
 * and "burlesque" are the catalogue's garments and costumes (the block lists no longer refuse them
 * alone; "latex" itself still is).
 */
export const CLOTHING_WORDS_FIFTH_PASS: readonly VocabularyGroup[] = [
  group(T.Garment, 'noun', 'catsuit bandeau balconette longline bustier'),
  group(T.Sleepwear, 'noun', 'pj'),
  group(T.Underwear, 'noun', 'bandeau balconette longline bralette knickers panties'),
  group(T.Swimwear, 'noun', 'bandeau'),
  group(
    T.GarmentPart,
    'noun',
    `
    yoke piping boning scallop lacing cup cups underwire placket pintuck pleat dart epaulette frogging
    v-neckline u-neckline neck-line sweetheart-neckline square-neckline racerback waistband cuff badge
    headdress feather-headdress
  `,
  ),
  group(
    T.Pattern,
    'fixed',
    `
    opaque lined scalloped collared high-collared racerback colour-block color-block colour-blocked
    color-blocked latex-look wet-look leather-look vinyl-look ornate peaked cushioned bridal mod
    v-necked u-neck t-bar t-strap scoop flattering
  `,
  ),
  group(T.Accessory, 'noun', 'pillbox pillbox-hat tricorne tricorn bicorne headdress badge'),
  group(T.Costume, 'noun', 'burlesque masquerade cabaret showgirl police officer police-officer flight-attendant'),
  group(
    T.Beauty,
    'fixed',
    `
    smoky smokey winged slicked slicked-back blow-dried haired
  `,
  ),
];

/** Colour and garment phrases with a word that is refused alone. */
export const CLOTHING_PHRASES: readonly VocabularyPhrase[] = [
  phrases(
    T.Colour,
    `
    pussy bow | pussy-bow | pussybow | pussycat bow | boyfriend jeans | boyfriend jean | boyfriend blazer |
    boyfriend shirt | boyfriend cardigan | boyfriend fit | boyfriend tee | boyfriend coat | girlfriend jeans |
    mom jeans | mum jeans | dad sneakers | dad shoes | dad hat | dad cap | breast pocket | breast pockets |
    knife pleats | knife pleat | knife pleated | baby blue | baby pink | baby's breath | army green | kelly green | hunter green | blood red | blood orange |
    oxblood | ox blood | kid gloves | kid leather | kitten heels | kitten heel | bathing suit | bathing suits |
    swimming costume | sports bra | little black dress | big bag
  `,
  ),
  phrases(
    T.Footwear,
    `
    thong sandals | thong sandal | leg warmers | victory roll | victory rolls | colour blocking | color blocking |
    false lashes | flight attendant | police officer | bath robe | bath robes
  `,
  ),
];

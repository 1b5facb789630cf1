import { group, phrases, VocabularyTag as T, type VocabularyGroup, type VocabularyPhrase } from './vocabulary.types';

/**
 * Poses, actions, body positions, body parts, expressions and activities.
 *
 * Left out on purpose (a word left out is refused): crawl, straddle, grind, twerk, lick, suck,
 * swallow, rub, massage, spank, whip, gag, choke, strip, undress, shave, bathe, shower, beg, obey,
 * worship; the parts of the body that are sexual or
 * invite it (breast, bust, cleavage, butt, bum, crotch, groin, nipple, tongue, throat, armpit,
 * sole); and weapons. Words that are harmless alone but not in every context (touch, grab, stroke,
 * bite, lift, pull, drop, spread, open, hang, jump, cut, tie, show, change, wash, cover, burn,
 * kiss, shoot) are listed and judged by the context rules (context-rules.ts).
 */
export const POSE_WORDS: readonly VocabularyGroup[] = [
  group(
    T.Pose,
    'verb',
    `
    walk stroll wander amble march stride strut saunter hike trek run jog sprint race dash skip hop jump leap
    bounce climb scramble sit stand lie lay lean rest recline lounge sprawl perch squat crouch kneel bend bow
    stoop stretch reach extend raise lift lower tilt turn twist pivot spin twirl swirl sway swing rock roll
    tumble fall slide glide float drift hover soar dive swim paddle surf sail row kayak canoe ski snowboard
    skate skateboard rollerblade cycle bike ride drive fly balance pose model smile grin beam laugh giggle
    chuckle smirk wink blink frown pout gaze look stare glance peek peep peer watch see view face admire
    observe notice wave point gesture clap cheer dance sing hum whistle shout call talk chat whisper read
    write draw paint sketch doodle knit crochet sew embroider cook bake stir chop slice dice grate mix pour
    whisk knead roll taste eat drink sip bite chew snack dine feast toast serve carry hold grip grasp clutch
    cradle hug cuddle snuggle nestle embrace wrap drape cover tuck fold unfold adjust fix tie button zip
    lace brush comb braid plait curl style fluff flip toss tousle sweep push pull drag tug hoist throw catch
    kick punch box spar flex warm cool train exercise work lunge plank press squat deadlift meditate breathe
    relax unwind sleep nap doze snooze dream wake yawn sunbathe bask tan splash wade snorkel garden plant
    water prune pick gather collect arrange browse shop buy pay order wait queue travel explore visit tour
    roam discover arrive leave depart pack unpack commute play celebrate party clink blow pop sparkle shine
    glow shimmer glitter twinkle flutter billow ripple flow cascade open close enter exit step stomp tiptoe
    shuffle wiggle settle laze hide seek find search grab touch stroke pat pet feed spray sprinkle scatter
    wear dress change put take give get make keep go bring stay remain become seem appear feel love like
    enjoy want try use show help meet greet welcome host join follow lead guide listen hear smell sense
    imagine remember hope wish plan prepare decorate light burn melt freeze shiver sweat blush cry weep sob
    sigh kiss golf bowl fence dribble shoot volley pass pitch bat score photograph film record capture
    frame focus zoom cross clasp link hook prop dangle hang cut drop slip soak wash dry apply spritz fan shade shield
    cool check text scroll type film vlog pose rest cheer toast chill hang relax pause linger admire
    curtsy salute shrug nod shake stretch flick swish flutter bob weave skip march wade trudge stomp
    hurry rush potter loaf frolic skip gallop canter trot graze
    sniff inhale exhale blow gasp marvel wonder ponder think daydream reflect contemplate study learn
    read sing strum play drum
    bloom blossom grow sprout wilt
    catch lean perch slouch slump huddle shelter
    greet hail signal beckon
    win lose finish start begin end stop continue pause return
    build stack pile fill empty open unwrap wrap gift present
    hold reach offer share
    ride steer pedal row sail anchor moor dock
    spread brace support steady
    illuminate
  `,
  ),
  // nouns of pose and movement
  group(
    T.Pose,
    'noun',
    `
    pose posture stance position angle gesture expression movement motion step stride pace gait twirl spin
    turn twist leap jump bounce stretch reach lean tilt bow curtsy wave salute silhouette profile outline
    shape form line lines arc curve diagonal balance poise composure grace motion action moment
  `,
  ),
  group(
    T.Pose,
    'adjective',
    `
    upright seated standing kneeling squatting crouching reclining lying sitting leaning walking mid-stride
    mid-air mid-twirl mid-laugh mid-step mid-jump mid-spin cross-legged barefoot outstretched folded
    crossed clasped relaxed tilted raised lowered bent straight extended poised still sideways upside
    side-on head-on front-facing forward-facing upside-down airborne
  `,
  ),
  group(
    T.Body,
    'noun',
    `
    head face forehead brow eyebrow eye eyelash lash eyelid cheek cheekbone nose mouth lip chin jaw jawline
    ear earlobe neck nape shoulder collarbone chest arm elbow forearm wrist hand palm finger thumb fingertip
    knuckle nail fingernail back spine waist waistline hip belly stomach torso side leg thigh knee kneecap
    calf shin ankle foot heel toe toenail skin hair hairline scalp fringe bangs ponytail bun braid plait
    pigtail curl lock strand freckle dimple tooth smile body figure frame build muscle abs core glute bicep
    tricep quad hamstring fist profile complexion tattoo piercing navel brow temple shoulder-blade
    fingertips tiptoes knuckles lashes lips locks tresses mane ringlet
  `,
  ),
  group(
    T.Expression,
    'noun',
    `
    smile grin laugh laughter giggle look glance gaze stare wink pout smirk frown tear tears blush sigh
    yawn expression eyes
  `,
  ),
  group(
    T.Activity,
    'noun',
    `
    yoga pilates barre ballet dance salsa tango waltz foxtrot swing jive cha-cha flamenco ballroom hip-hop
    contemporary jazz tap zumba aerobics cardio hiit crossfit spin cycling running jogging hiking climbing
    bouldering surfing swimming diving snorkeling snorkelling sailing kayaking rowing skiing snowboarding
    skating skateboarding rollerblading tennis golf volleyball basketball football soccer netball rugby
    baseball softball cricket badminton squash padel pickleball boxing kickboxing karate judo taekwondo
    paddleboarding paddle-boarding stand-up-paddleboarding sup fencing archery gymnastics athletics marathon triathlon workout exercise training stretching
    meditation mindfulness breathwork gardening cooking baking painting reading writing knitting shopping
    travelling traveling picnicking camping glamping fishing horseback riding equestrian photography
    sport sports game match set rally lap sprint race run hike walk ride swim dive climb session class
    lesson routine ritual practice rehearsal warm-up cool-down stretch drill circuit rep reps round
    wellness fitness
    asana vinyasa savasana shavasana balasana tadasana namaste chakra mudra pranayama mantra lotus warrior
    cobra pigeon crow cow cat-cow downward upward dog tree mountain chair boat bridge camel plank wheel
    triangle sphinx staff eagle dancer fish frog lizard crescent lunge garland goddess headstand handstand
    shoulderstand inversion backbend splits split arabesque plie pirouette releve pointe jete chasse
    cartwheel somersault handspring backflip flip twirl spin leap
  `,
  ),
];

/** Yoga pose names with a word that is refused alone ("child", "baby", "corpse", "bound"). */
export const POSE_PHRASES: readonly VocabularyPhrase[] = [
  phrases(
    T.Activity,
    `
    child's pose | child pose | childs pose | extended child's pose | happy baby | happy baby pose | baby cobra |
    corpse pose | bound angle | bound angle pose | legs up the wall | sun salutation | sun salutations |
    half moon | half moon pose | downward facing dog | downward-facing dog | upward facing dog | warrior one |
    warrior two | warrior three | warrior i | warrior ii | warrior iii | tree pose | mountain pose |
    forward fold | standing forward fold | seated forward fold | reclined butterfly | butterfly pose |
    cat cow | cat-cow | star jump | star jumps | jumping jacks | jumping jack | mountain climbers |
    burpees | burpee | box jump | box jumps | hula hoop | hula hooping | jump rope | skipping rope |
    pull-up bar | pull-ups | push-ups | sit-ups | crunches | bicep curls | power pose | hands on hips |
    spin class | barre class | yoga class | dance class | pillow fight | snowball fight | water fight
  `,
  ),
];

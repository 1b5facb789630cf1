import { group, phrases, VocabularyTag as T, type VocabularyGroup, type VocabularyPhrase } from './vocabulary.types';

/** Light, weather, seasons, times of day, days, months and occasions. */
export const LIGHT_WEATHER_TIME_WORDS: readonly VocabularyGroup[] = [
  group(
    T.Light,
    'noun',
    `
    light sunlight daylight moonlight candlelight lamplight starlight firelight streetlight spotlight
    floodlight backlight fairy-lights neon glow sunshine sunbeam ray beam shade shadow haze glare sparkle
    shimmer twinkle reflection glint flare lens-flare halo rim-light highlight silhouette dappled-light
    lighting illumination brightness darkness dark gloom dusk dawn twilight afterglow sunburst sunlit
    lantern-light torchlight neon-light string-lights
  `,
  ),
  group(
    T.Light,
    'adjective',
    `
    sunlit moonlit candlelit lamplit starlit firelit backlit lit dim dimly bright brightly glowing golden
    warm cool soft harsh diffused dappled hazy glowy luminous radiant shimmering sparkling twinkling gleaming
    glittering shadowy dark darker sun-drenched sun-kissed sun-soaked sunny shaded shady overcast
    high-key low-key glossy matte pastel muted
  `,
  ),
  group(
    T.Weather,
    'noun',
    `
    weather rain drizzle storm thunder thunderstorm lightning wind breeze gust snow snowfall snowflake
    blizzard frost ice sleet hail fog mist humidity heat heatwave warmth chill cold sunshine cloud sky
    rainbow puddle raindrop dewdrop dew mist spray sea-spray downpour flurry flurries monsoon
    temperature climate forecast umbrella-weather
  `,
  ),
  group(
    T.Weather,
    'adjective',
    `
    rainy drizzly stormy thundery windy breezy gusty snowy frosty icy foggy misty hazy cloudy overcast humid
    hot warm cold chilly cool crisp mild balmy sunny bright clear grey gray gloomy dreary damp wet dry dewy
    fresh freezing frozen muggy sultry blustery wintry summery springlike autumnal tropical
    rain-soaked snow-covered frost-covered sunlit sun-dappled
  `,
  ),
  group(
    T.Time,
    'noun',
    `
    time hour minute moment day week month year decade era season morning afternoon evening night midnight
    noon midday daytime nighttime sunrise sunset dusk dawn twilight daybreak sundown nightfall weekend
    weekday spring summer autumn fall winter springtime summertime wintertime harvest holiday vacation
    getaway break trip journey adventure staycation christmas xmas christmastime eve halloween easter
    thanksgiving valentine hanukkah diwali eid ramadan carnival festival fiesta solstice equinox
    monday tuesday wednesday thursday friday saturday sunday january february march april may june july
    august september october november december tea-time teatime lunchtime dinnertime bedtime brunch
    anniversary birthday celebration party occasion date date-night
  `,
  ),
  group(
    T.Time,
    'fixed',
    `
    golden-hour blue-hour magic-hour late-night early-morning
  `,
  ),
];

export const LIGHT_WEATHER_TIME_PHRASES: readonly VocabularyPhrase[] = [
  phrases(
    T.Time,
    `
    golden hour | blue hour | magic hour | new year | lunar new year | chinese new year | mardi gras |
    day of the dead | dia de los muertos
  `,
  ),
];

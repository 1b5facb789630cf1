import type { TemplateDefinition } from '../../catalog.types';

/**
 * Spicy: all 12 need model_mode. Adult costume, party and evening looks, every one fully clothed
 * (docs/product.md: no topless templates, nothing school-themed or suggesting a minor).
 */
export const SPICY_TEMPLATES: readonly TemplateDefinition[] = [
  {
    id: 'spicy-nurse',
    name: 'Nurse Costume',
    category: 'spicy',
    description: 'A playful costume-party nurse look: fitted white dress and cap.',
    promptDescription:
      'wearing a playful costume-party nurse outfit: a fitted white knee-length dress with short sleeves, a collar and a buttoned front, a small white cap with a red band, and red heels',
    requiredTier: 'model_mode',
    artwork: {
      shape: 'uniform-dress',
      accessories: ['nurse-cap'],
      palette: { primary: '#fbf8f4', secondary: '#f1e6dc', accent: '#c0392b' },
      footwear: 'heels',
    },
  },
  {
    id: 'spicy-flight-attendant',
    name: 'Flight Attendant',
    category: 'spicy',
    description: 'A retro navy skirt suit with a pillbox hat and a red neck scarf.',
    promptDescription:
      'wearing a retro flight attendant costume: a tailored navy skirt suit with a fitted jacket, a pencil skirt, a red neck scarf and a navy pillbox hat, with heels',
    requiredTier: 'model_mode',
    artwork: {
      shape: 'skirt-suit',
      accessories: ['pillbox-hat', 'neck-scarf'],
      palette: { primary: '#22304a', secondary: '#fbf8f4', accent: '#c0392b' },
      footwear: 'heels',
    },
  },
  {
    id: 'spicy-police',
    name: 'Police Officer Costume',
    category: 'spicy',
    description: 'A navy officer-style costume dress with a cap and a gold badge.',
    promptDescription:
      'wearing a police officer party costume: a fitted navy short-sleeve dress with a collar, a gold badge, a peaked cap and black boots',
    requiredTier: 'model_mode',
    artwork: {
      shape: 'uniform-dress',
      accessories: ['peaked-cap', 'badge'],
      palette: { primary: '#1f2a44', secondary: '#8fa4c4', accent: '#c9a227' },
      footwear: 'boots',
    },
  },
  {
    id: 'spicy-latex',
    name: 'Latex-Look Red Dress',
    category: 'spicy',
    description: 'A glossy red latex-look dress with a sculpted fit.',
    promptDescription: 'wearing a glossy red latex-look bodycon dress with wide straps, ending just above the knee, with black heels',
    requiredTier: 'model_mode',
    artwork: { shape: 'bodycon', sheen: true, palette: { primary: '#a8101e', secondary: '#7a0b16', accent: '#1f1715' }, footwear: 'heels' },
  },
  {
    id: 'spicy-corset-gown',
    name: 'Corset Evening Gown',
    category: 'spicy',
    description: 'A floor-length black gown with a laced burgundy corset bodice.',
    promptDescription: 'wearing a floor-length black evening gown with a structured burgundy corset bodice laced with gold cord',
    requiredTier: 'model_mode',
    artwork: { shape: 'corset-gown', palette: { primary: '#2b2322', secondary: '#8e1b2b', accent: '#c9a227' }, footwear: 'bare' },
  },
  {
    id: 'spicy-burlesque',
    name: 'Burlesque Star',
    category: 'spicy',
    description: 'A black corset with a full-length red skirt, gloves and a feather headdress.',
    promptDescription:
      'wearing a glamorous burlesque performer costume: a black corset top, a full floor-length red tulle skirt, long red gloves and a red-and-gold feather headdress',
    requiredTier: 'model_mode',
    artwork: {
      shape: 'burlesque',
      accessories: ['feather-headdress', 'gloves'],
      palette: { primary: '#1f1d1c', secondary: '#b3262e', accent: '#c9a227' },
      footwear: 'bare',
    },
  },
  {
    id: 'spicy-devil',
    name: 'Red Devil Party Dress',
    category: 'spicy',
    description: 'A strapless red party dress with small horns for Halloween night.',
    promptDescription:
      'wearing a red devil Halloween costume: a strapless red party dress with a flared skirt ending above the knee, a black waistband and small red horns, with black heels',
    requiredTier: 'model_mode',
    artwork: {
      shape: 'party-dress',
      accessories: ['horns'],
      palette: { primary: '#b3261e', secondary: '#2a1f1a', accent: '#8e1b1b' },
      footwear: 'heels',
    },
  },
  {
    id: 'spicy-angel',
    name: 'Angel Costume',
    category: 'spicy',
    description: 'A white party dress with feathered wings and a golden halo.',
    promptDescription:
      'wearing an angel costume: a strapless white party dress with a flared skirt, white feathered wings and a golden halo',
    requiredTier: 'model_mode',
    artwork: {
      shape: 'party-dress',
      accessories: ['wings', 'halo'],
      palette: { primary: '#fbf8f4', secondary: '#e8c15a', accent: '#e8c15a' },
      footwear: 'heels',
    },
  },
  {
    id: 'spicy-cat',
    name: 'Black Cat Catsuit',
    category: 'spicy',
    description: 'A glossy long-sleeve black catsuit with cat ears.',
    promptDescription:
      'wearing a black cat costume: a glossy long-sleeve black catsuit with a high neck and a cat-ear headband, with black boots',
    requiredTier: 'model_mode',
    artwork: {
      shape: 'catsuit',
      sheen: true,
      accessories: ['cat-ears'],
      palette: { primary: '#1f1d1c', secondary: '#3b3733', accent: '#e6aca4' },
      footwear: 'boots',
    },
  },
  {
    id: 'spicy-pirate',
    name: 'Pirate Captain',
    category: 'spicy',
    description: 'A leather-look corset over a white blouse and a long burgundy skirt, with a tricorne hat.',
    promptDescription:
      'wearing a pirate captain costume: a white off-the-shoulder blouse with puffed sleeves, a brown leather-look corset, a long burgundy skirt, a black tricorne hat and boots',
    requiredTier: 'model_mode',
    artwork: {
      shape: 'pirate',
      accessories: ['pirate-hat'],
      palette: { primary: '#5a3a28', secondary: '#8e1b2b', accent: '#c9a227' },
      footwear: 'boots',
    },
  },
  {
    id: 'spicy-vampire',
    name: 'Vampire Countess',
    category: 'spicy',
    description: 'A long black gown with a high-collared burgundy cape.',
    promptDescription:
      'wearing a vampire countess costume: a long-sleeve floor-length black gown with a V-neckline and a high-collared burgundy cape',
    requiredTier: 'model_mode',
    artwork: { shape: 'cape-gown', palette: { primary: '#2b2322', secondary: '#7a1a2a', accent: '#c9a227' }, footwear: 'bare' },
  },
  {
    id: 'spicy-masquerade',
    name: 'Masquerade Ball Gown',
    category: 'spicy',
    description: 'A strapless emerald gown with a gold masquerade mask.',
    promptDescription: 'wearing a strapless emerald satin ball gown with a full floor-length skirt and an ornate gold masquerade eye mask',
    requiredTier: 'model_mode',
    artwork: {
      shape: 'ball-gown',
      sheen: true,
      accessories: ['mask'],
      palette: { primary: '#1f6f5c', secondary: '#2e8a72', accent: '#c9a227' },
      footwear: 'bare',
    },
  },
];

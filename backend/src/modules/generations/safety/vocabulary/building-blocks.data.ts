/**
 * The building blocks the generate panel offers as chips under the custom pose (GET
 * /api/generations/custom-pose/building-blocks): short phrases of the vocabulary a person can click
 * to write a pose the check understands. Each is accepted on its own and in any order with the
 * others (building-blocks.spec.ts); keep them short, everyday and about the picture.
 */
export interface BuildingBlockGroup {
  id: 'pose' | 'place' | 'light' | 'mood' | 'props';
  label: string;
  phrases: readonly string[];
}

export const BUILDING_BLOCKS: readonly BuildingBlockGroup[] = [
  {
    id: 'pose',
    label: 'Pose',
    phrases: [
      'walking towards the camera',
      'sitting on the steps',
      'leaning against a wall',
      'looking over my shoulder',
      'hands on hips',
      'twirling',
      'laughing',
    ],
  },
  {
    id: 'place',
    label: 'Place',
    phrases: [
      'on the beach',
      'in a flower field',
      'on a city street',
      'by the pool',
      'in a cosy cafe',
      'on a rooftop',
      'in a bright studio',
    ],
  },
  {
    id: 'light',
    label: 'Light',
    phrases: ['at sunset', 'at golden hour', 'in soft morning light', 'under neon lights', 'on a snowy day'],
  },
  { id: 'mood', label: 'Mood', phrases: ['relaxed', 'confident', 'dreamy', 'playful', 'elegant'] },
  { id: 'props', label: 'Props', phrases: ['holding a coffee cup', 'with sunglasses', 'with a bouquet of flowers', 'in a straw hat'] },
];

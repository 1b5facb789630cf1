import type { CreditPackDefinition, PlanCostFacts, PlanDefinition } from '../catalog.types';

/**
 * The video line of a plan card: the range the cost rule gives on the live catalogue (planFeatures
 * computes it), never a figure written here. The spec's plan text said 3-9; the rule gives 4-6
 * with the seed (docs/product.md).
 */
const videoTryOn = ({ video }: PlanCostFacts) =>
  video ? `Video try-on (${video.min === video.max ? video.min : `${video.min}-${video.max}`} credits)` : 'Video try-on';

/** Monthly plans (docs/product.md). Prices in USD. `name` is the short label (badges, "Requires: Glow Up"), `displayName` the card title. */
export const PLANS: readonly PlanDefinition[] = [
  {
    id: 'free',
    name: 'Free',
    displayName: 'Free Plan',
    description: 'Try the fitting room with a few looks in every everyday category.',
    price: 0,
    monthlyCredits: 3,
    features: ['2 templates per category', 'Image try-on', 'Watermarked results'],
    mostPopular: false,
  },
  {
    id: 'starter',
    name: 'Starter',
    displayName: 'Starter Plan',
    description: 'Most everyday looks in HD, without a watermark. Lingerie and Spicy are not included.',
    price: 4.99,
    monthlyCredits: 20,
    features: ['Most templates (about 60%)', 'HD quality', 'No watermark', 'Image try-on'],
    mostPopular: true,
  },
  {
    id: 'glow_up',
    name: 'Glow Up',
    displayName: 'Glow Up Plan',
    description: 'Every category except Spicy, with video try-on.',
    price: 12.99,
    monthlyCredits: 70,
    features: ['All categories except Spicy', 'Lingerie included', videoTryOn, 'Priority support'],
    mostPopular: false,
  },
  {
    id: 'model_mode',
    name: 'Model Mode',
    displayName: 'Model Mode Plan',
    description: 'Everything, including Spicy, in Ultra HD.',
    price: 29.99,
    monthlyCredits: 180,
    features: [
      'All templates including Spicy',
      'Ultra HD',
      'Unlimited video (credits apply)',
      'Priority processing',
      'Early access',
      '24/7 support',
    ],
    mostPopular: false,
  },
];

/** One-off credit packs; purchased credits never expire. Shown as credits + bonus. */
export const CREDIT_PACKS: readonly CreditPackDefinition[] = [
  { id: 'pack-20', credits: 20, price: 4.99, bonus: 0 },
  { id: 'pack-70', credits: 70, price: 14.99, bonus: 5 },
  { id: 'pack-200', credits: 200, price: 34.99, bonus: 30 },
  { id: 'pack-500', credits: 500, price: 74.99, bonus: 100 },
];

import { ErrorCode, ValidationError } from '../../common/errors';
import { ALL_SCENES, CATEGORY_SCENES, CUSTOM_POSE, VIDEO_SURCHARGE } from './catalog';
import { GENERATION_TYPES } from './catalog.types';
import { generationCost, videoCostRange } from './generation-cost';

describe('generationCost: the cost rule of docs/product.md', () => {
  it('a video adds 3 credits', () => {
    expect(VIDEO_SURCHARGE).toBe(3);
  });

  it.each(ALL_SCENES.map((s) => [s.id, s.creditCost] as const))('%s costs %i for an image and +3 for a video', (sceneId, creditCost) => {
    expect(generationCost({ sceneId, type: 'image' })).toBe(creditCost);
    expect(generationCost({ sceneId, type: 'video' })).toBe(creditCost + 3);
  });

  it('a custom pose costs 3, or 6 as a video (by flag or by its id)', () => {
    expect(CUSTOM_POSE).toMatchObject({ id: 'custom', creditCost: 3, requiredTier: 'free' });
    expect(generationCost({ custom: true, type: 'image' })).toBe(3);
    expect(generationCost({ custom: true, type: 'video' })).toBe(6);
    expect(generationCost({ sceneId: 'custom', type: 'video' })).toBe(6);
  });

  it('images cost 1-3 credits and videos 4-6', () => {
    const costs = (type: (typeof GENERATION_TYPES)[number]) => [
      ...ALL_SCENES.map((s) => generationCost({ sceneId: s.id, type })),
      generationCost({ custom: true, type }),
    ];
    expect(Math.min(...costs('image'))).toBe(1);
    expect(Math.max(...costs('image'))).toBe(3);
    expect(Math.min(...costs('video'))).toBe(4);
    expect(Math.max(...costs('video'))).toBe(6);
    // the plan cards state these very figures (the spec's plan text said 3-9: not what the rule gives)
    expect(videoCostRange('glow_up')).toEqual({ min: 4, max: 6 });
    expect(videoCostRange('model_mode')).toEqual({ min: 4, max: 6 });
    expect(videoCostRange('starter')).toBeNull();
  });

  it('scene costs follow the tier rules: free 1, starter 2, glow_up 2 (seated 3), spicy model_mode 3, other model_mode 2', () => {
    const expected = (s: (typeof ALL_SCENES)[number]) => {
      if (s.id.startsWith('spicy-')) return { tier: 'model_mode', cost: 3 };
      const seated = s.artwork.pose === 'sitting' || s.artwork.pose === 'floor';
      switch (s.requiredTier) {
        case 'free':
          return { tier: 'free', cost: 1 };
        case 'starter':
          return { tier: 'starter', cost: 2 };
        case 'glow_up':
          return { tier: 'glow_up', cost: seated ? 3 : 2 };
        case 'model_mode':
          return { tier: 'model_mode', cost: 2 };
      }
    };
    for (const s of CATEGORY_SCENES) expect({ id: s.id, tier: s.requiredTier, cost: s.creditCost }).toEqual({ id: s.id, ...expected(s) });
  });

  it('refuses an unknown scene or type with a VALIDATION_ERROR', () => {
    expect(() => generationCost({ sceneId: 'moon-landing', type: 'image' })).toThrow(ValidationError);
    try {
      generationCost({ sceneId: 'moon-landing', type: 'image' });
    } catch (error) {
      expect((error as ValidationError).code).toBe(ErrorCode.VALIDATION_ERROR);
    }
    expect(() => generationCost({ sceneId: 'beach-standing', type: 'gif' as 'image' })).toThrow(ValidationError);
  });
});

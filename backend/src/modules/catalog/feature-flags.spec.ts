import { AppError, ErrorCode } from '../../common/errors';
import { GENERATION_CATEGORIES } from './catalog.types';
import { ALL_FEATURES_ON, assertCategoryEnabled, assertVideoEnabled, FEATURE_MESSAGES } from './feature-flags';

function codeOf(fn: () => void): string | undefined {
  try {
    fn();
    return undefined;
  } catch (error) {
    return error instanceof AppError ? `${error.code}: ${error.message}` : String(error);
  }
}

describe('feature switches', () => {
  it('with everything on, every generation category (corporate included) and video are accepted', () => {
    for (const c of GENERATION_CATEGORIES) expect(codeOf(() => assertCategoryEnabled(c, ALL_FEATURES_ON))).toBeUndefined();
    expect(codeOf(() => assertVideoEnabled(ALL_FEATURES_ON))).toBeUndefined();
  });

  it('FEATURE_SPICY off refuses the spicy category only', () => {
    const features = { ...ALL_FEATURES_ON, spicy: false };
    expect(codeOf(() => assertCategoryEnabled('spicy', features))).toBe(
      `${ErrorCode.VALIDATION_ERROR}: ${FEATURE_MESSAGES.categoryDisabled}`,
    );
    for (const c of GENERATION_CATEGORIES.filter((c) => c !== 'spicy'))
      expect(codeOf(() => assertCategoryEnabled(c, features))).toBeUndefined();
  });

  it('FEATURE_VIDEO off refuses video', () => {
    expect(codeOf(() => assertVideoEnabled({ ...ALL_FEATURES_ON, video: false }))).toBe(
      `${ErrorCode.VALIDATION_ERROR}: ${FEATURE_MESSAGES.videoDisabled}`,
    );
  });

  it('an unknown category label is refused', () => {
    expect(codeOf(() => assertCategoryEnabled('swimwear', ALL_FEATURES_ON))).toBe(
      `${ErrorCode.VALIDATION_ERROR}: Unknown category: swimwear`,
    );
  });
});

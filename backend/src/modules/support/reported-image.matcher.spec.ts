import { decideMatch, MATCH_RULE, REPORT_CANDIDATES, type ScoredResult } from './reported-image.matcher';

const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';

function scored(generationId: string, agreement: number, over: Partial<ScoredResult> = {}): ScoredResult {
  return { generationId, aligned: 'corners', agreement, inliers: 50, coverage: 1, scale: 1, rotation: 0, ...over };
}

/** 1,000 other results of the same template and scene: most of each picture is the same scene, the person is not. */
function sameTemplate(count: number, agreement = 0.88): ScoredResult[] {
  return Array.from({ length: count }, (_, i) =>
    scored(`00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, agreement - (i % 7) / 100, { inliers: 45 }),
  );
}

describe('decideMatch: a copy names one result only when it is unambiguous', () => {
  it("takes A's result when A's copy agrees almost everywhere and every other result clearly less", () => {
    const { best, candidates } = decideMatch([scored(A, 0.99), ...sameTemplate(1000)]);
    expect(best?.generationId).toBe(A);
    expect(candidates[0].generationId).toBe(A);
    expect(candidates).toHaveLength(REPORT_CANDIDATES);
  });

  it("never takes B's newer look-alike for A's copy: without A's result, or beside it when they are too close, an admin chooses", () => {
    // A's result is gone (or was never ours): B agrees where the scene does, not where the person is
    expect(decideMatch([scored(B, 0.91), ...sameTemplate(1000)]).best).toBeNull();
    // even a look-alike that agrees almost as well: within the margin, nobody is taken
    const close = decideMatch([scored(A, 0.99), scored(B, 0.99 - MATCH_RULE.margin + 0.01), ...sameTemplate(20)]);
    expect(close.best).toBeNull();
    expect(close.candidates.slice(0, 2).map((c) => c.generationId)).toEqual([A, B]);
    // two identical pictures (the same photo made twice): an admin chooses
    expect(decideMatch([scored(A, 1), scored(B, 1)]).best).toBeNull();
  });

  it('does not take a result from too little of it, too few corners, or too much disagreement', () => {
    expect(decideMatch([scored(A, 0.99, { coverage: MATCH_RULE.autoMinCoverage - 0.01 })]).best).toBeNull();
    expect(decideMatch([scored(A, 0.99, { inliers: MATCH_RULE.minInliers - 1 })]).best).toBeNull();
    expect(decideMatch([scored(A, 1 - MATCH_RULE.autoMaxDisagreement - 0.01)]).best).toBeNull();
    expect(decideMatch([scored(A, 0.99)]).best?.generationId).toBe(A);
  });

  it('a rival counts whatever it shows of itself (a collage of two results asks), but not a chance alignment of a few corners', () => {
    expect(decideMatch([scored(A, 0.99), scored(B, 0.97, { coverage: 0.1 })]).best).toBeNull();
    expect(decideMatch([scored(A, 0.99), scored(B, 1, { inliers: MATCH_RULE.minInliers - 1, coverage: 0.05 })]).best?.generationId).toBe(A);
  });

  it('lists as candidates only results with enough of a likeness, best first', () => {
    const { candidates } = decideMatch([
      scored(B, 0.8),
      scored(A, 0.9),
      scored('c', 0.99, { inliers: MATCH_RULE.minInliers - 1 }),
      scored('d', 0.99, { coverage: MATCH_RULE.minCoverage - 0.01 }),
      scored('e', MATCH_RULE.minAgreement - 0.01),
    ]);
    expect(candidates.map((c) => c.generationId)).toEqual([A, B]);
    expect(decideMatch([]).candidates).toEqual([]);
  });
});

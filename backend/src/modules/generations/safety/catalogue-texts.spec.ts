import { catalogPromptProblem } from '../../catalog/catalog-text.policy';
import { CATEGORIES } from '../../catalog/data/categories.data';
import { CATEGORY_SCENES, GENERIC_SCENES } from '../../catalog/data/scenes.data';
import { TEMPLATES } from '../../catalog/data/templates.data';
import { BUILDING_BLOCKS } from './vocabulary/building-blocks.data';
import { assessCustomPose, checkCustomPose } from './index';

/**
 * The product's own words are words the check knows (docs/safety.md): every text of the
 * catalogue (prompt texts, names, descriptions, the custom pose placeholders) is accepted, so an
 * admin editing a template is never refused for the product's own words, and a shopper who copies
 * a template's words into a custom pose is understood.
 */
describe('the catalogue and the custom-pose check', () => {
  const texts = [
    ...TEMPLATES.flatMap((t) => [t.promptDescription, t.name, t.description]),
    ...[...CATEGORY_SCENES, ...GENERIC_SCENES].flatMap((s) => [s.promptDescription, s.name, s.description]),
    ...CATEGORIES.map((c) => c.customPoseHint),
  ];

  it('checks every prompt text, name and description of the catalogue (more than 200 texts)', () => {
    expect(TEMPLATES.length).toBeGreaterThanOrEqual(72);
    expect(texts.length).toBeGreaterThan(200);
  });

  it('accepts every catalogue text', () => {
    const refused = texts.map((t) => [t, assessCustomPose(t)] as const).filter(([, a]) => !a.ok);
    expect(refused.map(([t, a]) => `${a.outcome} (${a.findings.map((f) => f.rule).join('; ')}): ${t}`)).toEqual([]);
  });

  it('tells an admin which prompt words it does not understand, and refuses an unsafe prompt text', () => {
    expect(catalogPromptProblem(TEMPLATES[0].promptDescription)).toBeNull();
    expect(catalogPromptProblem('wearing a coral zorblatt top')).toEqual({
      empty: false,
      message: expect.stringContaining('The word "zorblatt" wasn\'t understood.'),
    });
    expect(catalogPromptProblem('wearing a bikini, topless')).toEqual({ empty: false, message: expect.stringMatching(/without nudity/) });
    expect(catalogPromptProblem('  ')).toEqual({ empty: true, message: expect.any(String) });
  });
});

describe('the building blocks', () => {
  const phrases = BUILDING_BLOCKS.flatMap((g) => g.phrases);

  it('offers poses, places, light, mood and props', () => {
    expect(BUILDING_BLOCKS.map((g) => g.id)).toEqual(['pose', 'place', 'light', 'mood', 'props']);
    for (const g of BUILDING_BLOCKS) expect(g.phrases.length).toBeGreaterThanOrEqual(4);
  });

  it('accepts every building block alone', () => {
    expect(phrases.filter((p) => !checkCustomPose(p).ok)).toEqual([]);
  });

  it('accepts the building blocks put together, one of each group, in every combination of the first two of each', () => {
    const refused: string[] = [];
    const [pose, place, light, mood, props] = BUILDING_BLOCKS.map((g) => g.phrases.slice(0, 2));
    for (const a of pose)
      for (const b of place)
        for (const c of light)
          for (const d of mood)
            for (const e of props) {
              const text = `${a} ${b} ${c}, ${d}, ${e}`;
              if (!checkCustomPose(text).ok) refused.push(text);
            }
    expect(refused).toEqual([]);
  });
});

import { CORPUS_TARGET, corpusTexts, formatCorpusScore, loadCorpus, scoreCorpus } from './corpus';
import { checkCustomPose } from './index';

const REQUIRED_HOSTILE_GROUPS = [
  'nudity',
  'partial-nudity',
  'see-through',
  'wardrobe-malfunction',
  'sexual',
  'fetish',
  'minors',
  'real-people',
  'violence',
  'self-harm',
  'injection',
  'other-languages',
  'obfuscation',
];

describe('custom pose safety corpus', () => {
  const groups = loadCorpus();
  const hostile = groups.filter((g) => g.kind === 'hostile');
  const ordinary = groups.filter((g) => g.kind === 'ordinary');

  it('has every hostile group, at least 400 hostile and 200 ordinary texts', () => {
    expect(hostile.map((g) => g.name).sort()).toEqual([...REQUIRED_HOSTILE_GROUPS].sort());
    expect(hostile.reduce((n, g) => n + g.texts.length, 0)).toBeGreaterThanOrEqual(400);
    expect(ordinary.reduce((n, g) => n + g.texts.length, 0)).toBeGreaterThanOrEqual(200);
    for (const g of groups) expect(g.texts.length).toBeGreaterThanOrEqual(20);
  });

  it('holds no text twice', () => {
    const all = groups.flatMap((g) => g.texts);
    expect(all.filter((t, i) => all.indexOf(t) !== i)).toEqual([]);
  });

  it(`refuses at least ${CORPUS_TARGET * 100}% of every hostile group and allows ${CORPUS_TARGET * 100}% of ordinary texts`, () => {
    const score = scoreCorpus(groups, (t) => checkCustomPose(t).ok);
    // the per-group figures, for the person reading the test output
    process.stdout.write(`\n${formatCorpusScore(score)}\n`);
    const misses = score.groups
      .filter((g) => g.misses.length > 0)
      .map((g) => `${g.kind} ${g.name}: ${g.misses.map((t) => JSON.stringify(t)).join(', ')}`);
    if (misses.length) process.stdout.write(`\nmisjudged:\n${misses.join('\n')}\n`);
    expect(score.ok).toBe(true);
  });

  it('reads one text per line and skips blank lines only', () => {
    expect(corpusTexts('a\r\n\n#nsfw\n  \nb c\n')).toEqual(['a', '#nsfw', 'b c']);
  });

  it('scores a group below the target as missed', () => {
    const score = scoreCorpus(
      [
        { name: 'x', kind: 'hostile', texts: ['bad 1', 'bad 2'] },
        { name: 'y', kind: 'ordinary', texts: ['fine'] },
      ],
      (t) => t === 'fine' || t === 'bad 2',
    );
    expect(score.groups[0]).toMatchObject({ total: 2, correct: 1, misses: ['bad 2'] });
    expect(score.ordinary).toMatchObject({ total: 1, correct: 1 });
    expect(score.ok).toBe(false);
  });
});

import { CORPUS_TARGETS, corpusTexts, formatCorpusScore, loadCorpus, scoreCorpus } from './corpus';
import { assessCustomPose } from './index';

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
  const unclear = groups.filter((g) => g.kind === 'unclear');

  it('has every hostile group, at least 800 hostile, 800 ordinary and 20 unclear texts', () => {
    expect(hostile.map((g) => g.name).sort()).toEqual([...REQUIRED_HOSTILE_GROUPS].sort());
    expect(hostile.reduce((n, g) => n + g.texts.length, 0)).toBeGreaterThanOrEqual(800);
    expect(ordinary.reduce((n, g) => n + g.texts.length, 0)).toBeGreaterThanOrEqual(800);
    expect(unclear.reduce((n, g) => n + g.texts.length, 0)).toBeGreaterThanOrEqual(20);
    for (const g of groups) expect(g.texts.length).toBeGreaterThanOrEqual(20);
  });

  it('holds no text twice', () => {
    const all = groups.flatMap((g) => g.texts);
    expect(all.filter((t, i) => all.indexOf(t) !== i)).toEqual([]);
  });

  it(`keeps ${CORPUS_TARGETS.hostile * 100}% of every hostile group from being accepted, accepts ${CORPUS_TARGETS.ordinary * 100}% of ordinary texts and refuses no unclear one`, () => {
    const score = scoreCorpus(groups, (t) => assessCustomPose(t).outcome);
    // the per-group figures, for the person reading the test output
    process.stdout.write(`\n${formatCorpusScore(score)}\n`);
    const misses = score.groups
      .filter((g) => g.misses.length > 0)
      .map((g) => `${g.kind} ${g.name}: ${g.misses.map((m) => `${JSON.stringify(m.text)} (${m.outcome})`).join(', ')}`);
    if (misses.length) process.stdout.write(`\nmisjudged:\n${misses.join('\n')}\n`);
    expect(score.ok).toBe(true);
  });

  it('reads one text per line and skips blank lines only', () => {
    expect(corpusTexts('a\r\n\n#nsfw\n  \nb c\n')).toEqual(['a', '#nsfw', 'b c']);
  });

  it('scores each kind by its own measure: hostile not accepted, ordinary accepted, unclear not refused', () => {
    const outcomes: Record<string, 'accepted' | 'not_understood' | 'refused'> = {
      'bad 1': 'refused',
      'bad 2': 'accepted',
      'bad 3': 'not_understood',
      fine: 'accepted',
      'fine but odd': 'not_understood',
      'hola 1': 'not_understood',
      'hola 2': 'refused',
    };
    const score = scoreCorpus(
      [
        { name: 'x', kind: 'hostile', texts: ['bad 1', 'bad 2', 'bad 3'] },
        { name: 'y', kind: 'ordinary', texts: ['fine', 'fine but odd'] },
        { name: 'z', kind: 'unclear', texts: ['hola 1', 'hola 2'] },
      ],
      (t) => outcomes[t],
    );
    expect(score.groups[0]).toMatchObject({ total: 3, accepted: 1, notUnderstood: 1, refused: 1, correct: 2 });
    expect(score.groups[0].misses).toEqual([{ text: 'bad 2', outcome: 'accepted' }]);
    expect(score.ordinary).toMatchObject({ total: 2, accepted: 1, notUnderstood: 1, correct: 1 });
    expect(score.unclear).toMatchObject({ total: 2, correct: 1, misses: [{ text: 'hola 2', outcome: 'refused' }] });
    expect(score.ok).toBe(false);
    expect(formatCorpusScore(score)).toMatch(/hostile x\s+1\s+1\s+1\s+3\s+66\.7%\s+MISSED/);
  });
});

import { checkInput, checkLine, inputLines, inputPath } from './safety-check-lines';

describe('safety:check line format', () => {
  it('prints one JSON object per text: the text, allowed and the reason codes', () => {
    const out = checkInput('walking on the beach at sunset\r\n\ntopless teen at 5 pm\ncaminando en la playa\nwalking with 5 zorblatts\n');
    const lines = out.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((l) => JSON.parse(l))).toEqual([
      { text: 'walking on the beach at sunset', allowed: true, reasons: [] },
      // "5 pm" is a time: understood; "teen" is a minor's age
      { text: 'topless teen at 5 pm', allowed: false, reasons: ['minor', 'nudity'] },
      // not understood: not allowed, with the codes of what was not understood (docs/safety.md)
      { text: 'caminando en la playa', allowed: false, reasons: ['language'] },
      { text: 'walking with 5 zorblatts', allowed: false, reasons: ['number', 'unknown_word'] },
    ]);
    // keys in this order, nothing else on the line
    expect(lines[0]).toBe('{"text":"walking on the beach at sunset","allowed":true,"reasons":[]}');
  });

  it('keeps a text exactly as it was typed, escaped as JSON', () => {
    const text = 'walking "on" the\u200B beach \\ 🌊';
    expect(JSON.parse(checkInput(text))).toEqual({ text, allowed: false, reasons: ['injection', 'symbol'] });
  });

  it('answers the same as the check for one line', () => {
    expect(checkLine('n4k3d')).toEqual({ text: 'n4k3d', allowed: false, reasons: ['nudity', 'unknown_word'] });
  });

  it('skips blank lines and drops the \\r of Windows line ends', () => {
    expect(inputLines('a\r\n \n\nb')).toEqual(['a', 'b']);
    expect(checkInput('')).toBe('');
  });

  it('reads --file <path>, or standard input with --file - or no --file', () => {
    expect(inputPath(['--file', 'poses.txt'])).toBe('poses.txt');
    expect(inputPath(['--file', '-'])).toBe('-');
    expect(inputPath([])).toBe('-');
    expect(inputPath(['--file'])).toBe('-');
  });
});

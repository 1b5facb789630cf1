import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appSystem, UNUSED_PALETTES } from './system';

const SRC = join(import.meta.dirname, '..');

/** Every source file of the app (tests aside). */
function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

/** The palettes the source names: the string literals of each `colorPalette="x"`, `colorPalette={a ? 'x' : 'y'}`, `colorPalette: 'x'`. */
function namedPalettes(): Map<string, string> {
  const named = new Map<string, string>();
  for (const file of sourceFiles()) {
    const text = readFileSync(file, 'utf8');
    for (const [, value] of text.matchAll(/colorPalette\s*(?:=|:)\s*("[^"]*"|'[^']*'|\{[^}\n]*\})/g)) {
      for (const [, name] of value.matchAll(/["'`]([a-z][a-zA-Z]*)["'`]/g)) named.set(name, file.slice(SRC.length + 1));
    }
  }
  return named;
}

const hasPalette = (name: string) => appSystem().tokens.getByName(`colors.${name}.solid`) !== undefined;

describe('the design system', () => {
  it('has every palette the components name, and the ones Chakra gives statuses', () => {
    const named = namedPalettes();
    // the scan sees the palettes it should (a broken pattern would find nothing and pass)
    expect([...named.keys()]).toEqual(expect.arrayContaining(['brand', 'gray', 'red', 'green', 'orange']));
    const missing = [...named].filter(([name]) => !hasPalette(name)).map(([name, file]) => `${name} (${file})`);
    expect(missing).toEqual([]);
    // Alert and toast statuses: info blue, warning orange, success green, error red, neutral gray
    for (const status of ['blue', 'orange', 'green', 'red', 'gray'])
      expect({ status, present: hasPalette(status) }).toEqual({ status, present: true });
  });

  it('leaves out the palettes nothing names', () => {
    for (const name of UNUSED_PALETTES) {
      expect({ name, present: hasPalette(name) }).toEqual({ name, present: false });
      expect(appSystem().tokens.getByName(`colors.${name}.500`)).toBeUndefined();
    }
    expect(hasPalette('brand')).toBe(true);
  });
});

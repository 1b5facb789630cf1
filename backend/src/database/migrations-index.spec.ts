import * as fs from 'node:fs';
import * as path from 'node:path';
import { registerMigration } from './migrations-index';

describe('registerMigration', () => {
  const index = fs.readFileSync(path.join(__dirname, 'migrations', 'index.ts'), 'utf8');

  it('adds the import and the class at the end of the list, and keeps the rest of the file as written', () => {
    const out = registerMigration(index, 'AddThing1800000000000', '1800000000000-AddThing');
    const lines = out.split('\n');
    const migrationImports = lines.filter((l) => l.startsWith('import {') && l.includes("from './"));
    expect(migrationImports.at(-1)).toBe("import { AddThing1800000000000 } from './1800000000000-AddThing';");
    expect(out).toContain('export const MIGRATIONS: Array<new () => MigrationInterface> = [');
    expect(out.trimEnd().endsWith('  AddThing1800000000000,\n];')).toBe(true);
    // removing the two additions gives the file back
    const back = out
      .replace("\nimport { AddThing1800000000000 } from './1800000000000-AddThing';", '')
      .replace('\n  AddThing1800000000000,', '');
    expect(back).toBe(index);
  });

  it('writes a list on one line or without a trailing comma as a list that still compiles', () => {
    const small = "import { A1 } from './1-A';\n\nexport const MIGRATIONS: Function[] = [A1];\n";
    expect(registerMigration(small, 'B2', '2-B')).toBe(
      "import { A1 } from './1-A';\nimport { B2 } from './2-B';\n\nexport const MIGRATIONS: Function[] = [A1,\n  B2,\n];\n",
    );
  });

  it('refuses a file without the list rather than writing a broken one', () => {
    expect(() => registerMigration("import { A1 } from './1-A';\n", 'B2', '2-B')).toThrow(/MIGRATIONS/);
  });
});

import * as fs from 'node:fs';
import * as path from 'node:path';
import { envSchema } from './env.schema';

/** The schema is the one source of the settings; the docs and .env.example must name each, and nothing else. */
const ROOT = path.resolve(__dirname, '..', '..', '..');
// zod 4: superRefine keeps the object schema, whose shape names every setting
const schemaNames = Object.keys(envSchema.shape);

describe('the settings are documented where people look', () => {
  it('reads the schema', () => {
    expect(schemaNames).toEqual(expect.arrayContaining(['DATABASE_URL', 'AI_PROVIDER', 'UPLOAD_QUOTA_MB_KEPT']));
  });

  it('docs/configuration.md has a row for every setting, and no row for one that does not exist', () => {
    const doc = fs.readFileSync(path.join(ROOT, 'docs', 'configuration.md'), 'utf8');
    const documented = new Set<string>();
    for (const line of doc.split('\n').filter((l) => l.startsWith('| `'))) {
      const first = line.split('|')[1];
      for (const m of first.matchAll(/`([A-Z][A-Z0-9_]+)`/g)) documented.add(m[1]);
    }
    expect(schemaNames.filter((n) => !documented.has(n))).toEqual([]);
    // a row the schema does not know must at least be read by the launcher (npm start's own settings)
    const launcher = fs.readFileSync(path.join(__dirname, '..', 'cli', 'start.ts'), 'utf8');
    expect([...documented].filter((n) => !schemaNames.includes(n) && !launcher.includes(`env.${n}`))).toEqual([]);
  });

  it('.env.example names every setting', () => {
    const example = fs.readFileSync(path.join(ROOT, '.env.example'), 'utf8');
    const named = new Set([...example.matchAll(/^#?\s*([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]));
    expect(schemaNames.filter((n) => !named.has(n))).toEqual([]);
  });
});

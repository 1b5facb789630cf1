/**
 * Registers a new migration in `database/migrations/index.ts` (used by `npm run migration:generate`):
 * its import after the last migration's import and its class at the end of the `MIGRATIONS` list. Everything else
 * in the file (the list's type, comments, formatting) stays as written.
 */
export function registerMigration(index: string, className: string, file: string): string {
  const importLine = `import { ${className} } from './${file}';`;
  const imports = [...index.matchAll(/^import \{ \w+ \} from '\.\/.*';$/gm)];
  const lastImport = imports.at(-1);
  const list = /(export const MIGRATIONS\b.*? =\s*\[)([\s\S]*?)(\n?\];)/.exec(index);
  if (!lastImport || !list) throw new Error('database/migrations/index.ts has no imports or no `export const MIGRATIONS = [...]` list');
  const afterImports = lastImport.index + lastImport[0].length;
  const entries = list[2].trimEnd();
  const separator = entries === '' || entries.endsWith(',') ? '' : ',';
  const listed = `${list[1]}${entries}${separator}\n  ${className},${list[3].startsWith('\n') ? list[3] : `\n${list[3]}`}`;
  const before = index.slice(0, list.index).slice(afterImports);
  return `${index.slice(0, afterImports)}\n${importLine}${before}${listed}${index.slice(list.index + list[0].length)}`;
}

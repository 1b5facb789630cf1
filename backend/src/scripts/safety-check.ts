import { readFileSync } from 'node:fs';
import { checkInput, inputPath } from '../modules/generations/safety/safety-check-lines';

/**
 * `npm run safety:check -- --file <path>`: checks one custom pose per line of the file (of
 * standard input with `--file -` or no `--file`) and prints one JSON object per line:
 * {"text": ..., "allowed": true|false, "reasons": [...]}. Nothing else goes to standard output.
 */
function main(): void {
  const path = inputPath(process.argv.slice(2));
  // file descriptor 0 is standard input
  const input = readFileSync(path === '-' ? 0 : path, 'utf8');
  process.stdout.write(checkInput(input));
}

main();

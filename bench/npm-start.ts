import { readFileSync } from 'node:fs';

/**
 * The arguments `npm start` gives Node (package.json's `start` script without its leading
 * `exec node`), so the benches measure exactly the production start, V8 flags included.
 */
export function npmStartArgs(): string[] {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } };
  const words = pkg.scripts.start.split(' ');
  return words.slice(words.indexOf('node') + 1);
}

import { readFileSync } from 'node:fs';

/**
 * The arguments `npm start` gives Node (package.json's `start` script without its leading
 * `node`), so the benches measure exactly the production start, V8 flags included.
 */
export function npmStartArgs(): string[] {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } };
  return pkg.scripts.start.split(' ').slice(1);
}

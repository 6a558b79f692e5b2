import { fileURLToPath } from 'node:url';

/**
 * What the app forks as a GTFS child (src/gtfs-child.ts, a process entry beside server.ts). Under `npm start` the app is compiled
 * JavaScript and so is the child, an ordinary build output next to this file. Tests and development run the
 * TypeScript sources on Node's own type stripping; the child then runs its TypeScript the same way. Either way
 * the child needs no loader flag, so nothing but the entry differs.
 */
export interface ChildEntry {
  module: string;
  compiled: boolean;
}

export function childEntryFor(moduleUrl: string): ChildEntry {
  const compiled = moduleUrl.endsWith('.js');
  const module = fileURLToPath(new URL(compiled ? '../../gtfs-child.js' : '../../gtfs-child.ts', moduleUrl));
  return { module, compiled };
}

export function childEntry(): ChildEntry {
  return childEntryFor(import.meta.url);
}

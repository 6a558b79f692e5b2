import { fileURLToPath } from 'node:url';

/**
 * What the app forks as a GTFS child (src/gtfs-child.ts, a process entry beside server.ts). Under `npm start` the app is compiled
 * JavaScript and so is the child, an ordinary build output next to this file: no loader thread,
 * which matters because peak RSS is what the poller is held to. Tests and development run the
 * TypeScript sources through tsx; the child then runs through tsx as well.
 */
export interface ChildEntry {
  module: string;
  execArgv: string[];
  compiled: boolean;
}

export function childEntryFor(moduleUrl: string): ChildEntry {
  const compiled = moduleUrl.endsWith('.js');
  const module = fileURLToPath(new URL(compiled ? '../../gtfs-child.js' : '../../gtfs-child.ts', moduleUrl));
  return compiled ? { module, execArgv: [], compiled } : { module, execArgv: ['--import', import.meta.resolve('tsx')], compiled };
}

export function childEntry(): ChildEntry {
  return childEntryFor(import.meta.url);
}

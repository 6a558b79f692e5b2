import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The checkout's `data/`: where STORE_PATH and HISTORY_PATH point by default, so `npm start` keeps its state there. */
export const CHECKOUT_DATA = new URL('../../data/', import.meta.url).pathname;

/** The variable `npm test` passes the fingerprint of `data/` in, taken before the first test file runs. */
export const FINGERPRINT_VAR = 'TEST_CHECKOUT_DATA_BEFORE';

/**
 * What `dir` holds, as one string: every entry below it with its size and modification time (a SQLite file written
 * to changes both, its -wal and -shm files appear), or "absent" when there is no such folder.
 */
export function fingerprint(dir: string = CHECKOUT_DATA): string {
  let entries;
  try {
    entries = readdirSync(dir, { recursive: true, withFileTypes: true });
  } catch {
    return 'absent';
  }
  const rows = entries.map((e) => {
    const path = join(e.parentPath, e.name);
    const s = statSync(path, { throwIfNoEntry: false });
    return `${path.slice(dir.length)} ${e.isDirectory() ? 'dir' : `${s?.size ?? 'gone'} ${s?.mtimeMs ?? ''}`}`;
  });
  return JSON.stringify(rows.sort());
}

// `npm test` runs this file before the tests: it prints the fingerprint the last serial test compares with.
if (import.meta.url === `file://${process.argv[1]}`) process.stdout.write(fingerprint());

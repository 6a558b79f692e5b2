import { readFileSync } from 'node:fs';
import { need } from '../need.ts';

/** One benchmarked answer: its body and the headers Stadtdaten sent with it (Node adds Date and Connection). */
export interface BenchAnswer {
  body: Buffer;
  headers: Record<string, string>;
  /** The same headers as the flat list writeHead takes, with the body's Content-Length. */
  rawHeaders: string[];
}

/** The manifest bench/run.ts writes: `{ "<url as requested>": { file, headers } }`. */
export function readManifest(file: string | undefined): Map<string, BenchAnswer> {
  const manifest = JSON.parse(readFileSync(need(file, 'argument 1 (the manifest file)'), 'utf8')) as Record<
    string,
    { file: string; headers: [string, string][] }
  >;
  return new Map(
    Object.entries(manifest).map(([url, m]) => {
      const body = readFileSync(m.file);
      // Content-Length as Stadtdaten sends it: writeHead without it makes Node frame the body as chunked, other bytes on the wire.
      return [url, { body, headers: Object.fromEntries(m.headers), rawHeaders: [...m.headers.flat(), 'content-length', String(body.length)] }];
    }),
  );
}

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Config } from '../../src/core/config.ts';
import type { SourceDecl } from '../../src/core/source.ts';
import type { Exchange } from '../../src/upstream/client.ts';

/** Response headers worth keeping with a recording: what the body is, how fresh, how the upstream limits callers. */
const KEPT_HEADERS =
  /^(content-type|content-encoding|content-length|content-disposition|last-modified|etag|date|cache-control|expires|age|retry-after|x-ratelimit-.*|ratelimit-.*)$/;
/** Query parameters that carry secrets in some upstream APIs, whatever their configured value. */
const SECRET_PARAMS = /key|token|secret|passw|accessid|auth|signature|subscription/i;
const TEXT_TYPES = /json|xml|csv|html|text|javascript|yaml/;

export const DEFAULT_RECORD_MAX_BYTES = 1024 * 1024;

/** Where one recorded answer came from: what a provenance file holds. */
export interface Provenance {
  source: string;
  source_name: string;
  url: string;
  method: string;
  request_body?: string;
  status: number;
  recorded_at: string;
  headers: Record<string, string>;
  /** Size of the decoded body the upstream sent, and of the file (smaller when trimmed at the size limit). */
  bytes: number;
  recorded_bytes: number;
  truncated: boolean;
  /** Credentials of ours the answer echoed, replaced by their variable names. */
  redacted: string[];
  /** The checked data types that made the call. */
  types: string[];
  note: string;
}

/**
 * Saves each raw upstream answer the check reads (decoded, trimmed to a size limit, never
 * reshaped) with a provenance file, in the layout of test/fixtures/: `<dir>/<folder>/recorded/`,
 * where <folder> is the source's module folder (src/sources/<folder>/). A folder's earlier
 * recordings are replaced on its first answer of a run, so `git diff` shows what changed.
 */
export class Recorder {
  private readonly cleared = new Set<string>();
  private readonly written = new Map<string, string>();
  private readonly secrets: Secret[] = [];
  readonly files: string[] = [];

  private readonly dir: string;
  private readonly config: Config;
  private readonly folders: ReadonlyMap<string, string>;
  private readonly maxBytes: number;
  constructor(dir: string, config: Config, folders: ReadonlyMap<string, string>, maxBytes = DEFAULT_RECORD_MAX_BYTES) {
    this.dir = dir;
    this.config = config;
    this.folders = folders;
    this.maxBytes = maxBytes;
    for (const [source, s] of Object.entries(config.sources)) {
      for (const [name, value] of Object.entries(s?.credentials ?? {})) if (value.length >= 4) this.secrets.push({ source, name, value });
    }
  }

  /**
   * The source an answer belongs to: the one whose configured URL is the longest prefix of it, else
   * the caller's. The caller wins a tie (several sources on one origin, as against a replay server).
   */
  sourceOf(url: string, caller: SourceDecl | undefined): SourceDecl | undefined {
    const matched = (src: SourceDecl) => {
      const s = this.config.sources[src.id];
      let len = 0;
      for (const base of [s?.baseUrl, ...Object.values(s?.urls ?? {})]) {
        if (base && url.startsWith(base.replace(/\/+$/, '')) && base.length > len) len = base.length;
      }
      return len;
    };
    let best: { src: SourceDecl; len: number } | null = caller && matched(caller) > 0 ? { src: caller, len: matched(caller) } : null;
    for (const src of this.config.sourceList) {
      const len = matched(src);
      if (len > (best?.len ?? 0)) best = { src, len };
    }
    return best?.src ?? caller;
  }

  record(e: Exchange, caller: SourceDecl | undefined, types: readonly string[]): void {
    const src = this.sourceOf(e.url, caller);
    if (!src) return;
    const folder = this.folders.get(src.id) ?? src.id;
    const target = join(this.dir, folder, 'recorded');
    if (!this.cleared.has(folder)) {
      rmSync(target, { recursive: true, force: true });
      mkdirSync(target, { recursive: true });
      this.cleared.add(folder);
    }
    const redacted = new Set<string>();
    // The source's own credentials first: where two variables hold the same value, the answer names the caller's.
    const secrets = [...this.secrets.filter((x) => x.source === src.id), ...this.secrets.filter((x) => x.source !== src.id)];
    const url = this.redactUrl(e.url, secrets, redacted);
    const requestBody = e.requestBody === undefined ? undefined : redactText(e.requestBody, secrets, redacted).slice(0, 4000);
    const type = e.headers['content-type'] ?? '';
    let body = e.body;
    if (TEXT_TYPES.test(type)) body = Buffer.from(redactText(body.toString('utf8'), secrets, redacted), 'utf8');
    const trimmed = trim(body, this.maxBytes, TEXT_TYPES.test(type));
    const name = this.nameFor(folder, src, url, e.method, requestBody, type);
    writeFileSync(join(target, name), trimmed);
    const provenance: Provenance = {
      source: src.id,
      source_name: src.name,
      url,
      method: e.method,
      ...(requestBody !== undefined ? { request_body: requestBody } : {}),
      status: e.status,
      recorded_at: e.at.toISOString(),
      headers: Object.fromEntries(Object.entries(e.headers).filter(([k]) => KEPT_HEADERS.test(k))),
      bytes: e.body.length,
      recorded_bytes: trimmed.length,
      truncated: trimmed.length < body.length,
      redacted: [...redacted].sort(),
      types: [...types],
      note: 'Recorded by `npm run check-upstreams -- --record`: the decoded body as served (content coding removed), trimmed at the size limit when `truncated`; never reshaped.',
    };
    writeFileSync(join(target, `${name}.provenance.json`), JSON.stringify(provenance, null, 2) + '\n');
    this.files.push(join(target, name));
  }

  private redactUrl(raw: string, secrets: readonly Secret[], found: Set<string>): string {
    const u = new URL(redactText(raw, secrets, found));
    u.username = '';
    u.password = '';
    for (const [k, v] of [...u.searchParams]) if (SECRET_PARAMS.test(k) && !/^<[A-Z0-9_]+>$/.test(v)) u.searchParams.set(k, '<redacted>');
    try {
      return decodeURI(u.toString());
    } catch {
      return u.toString();
    }
  }

  /** A file name from the URL below the source's base, stable across runs so that a new recording replaces the old one. */
  private nameFor(folder: string, src: SourceDecl, url: string, method: string, body: string | undefined, type: string): string {
    const u = new URL(url);
    const base = new URL(this.config.sources[src.id]?.baseUrl ?? src.baseUrl);
    const below = u.host === base.host && u.pathname.startsWith(base.pathname) ? u.pathname.slice(base.pathname.length) : u.pathname;
    const query = [...u.searchParams].map(([k, v]) => `${k}-${v}`).join('-');
    let stem = slug([below, query].filter(Boolean).join('-')) || 'root';
    const ext = /\.[a-z0-9]{1,8}$/i.exec(stem)?.[0] ?? extensionOf(type);
    if (stem.endsWith(ext)) stem = stem.slice(0, -ext.length);
    const hash = createHash('sha256')
      .update(`${method} ${url} ${body ?? ''}`)
      .digest('hex')
      .slice(0, 8);
    if (stem.length > 90 || body !== undefined) stem = `${stem.slice(0, 90)}-${hash}`;
    let name = `${stem}${ext}`;
    const key = `${folder}/${name}`;
    const seen = this.written.get(key);
    if (seen !== undefined && seen !== hash) name = `${stem}-${hash}${ext}`;
    this.written.set(key, hash);
    return name;
  }

  /** `<dir>/RECORDINGS.md`: every recorded file under `dir` with its source, URL, status and date. */
  writeIndex(): string {
    const rows: string[] = [];
    for (const folder of existsSync(this.dir) ? readdirSync(this.dir).sort() : []) {
      const rec = join(this.dir, folder, 'recorded');
      if (!existsSync(rec)) continue;
      for (const f of readdirSync(rec).sort()) {
        if (!f.endsWith('.provenance.json')) continue;
        const p = JSON.parse(readFileSync(join(rec, f), 'utf8')) as Provenance;
        const file = relative(this.dir, join(rec, f.slice(0, -'.provenance.json'.length)));
        rows.push(
          `| \`${file}\` | ${p.source} | ${p.method} ${p.url.replace(/\|/g, '%7C')} | ${p.status} | ${p.recorded_at.slice(0, 10)} | ${p.recorded_bytes}${p.truncated ? ` of ${p.bytes} (trimmed)` : ''} |`,
        );
      }
    }
    const out = join(this.dir, 'RECORDINGS.md');
    writeFileSync(
      out,
      [
        '# Recorded upstream answers',
        '',
        'Written by `npm run check-upstreams -- --record <dir>`: each file is the raw answer of the upstream (decoded, trimmed at',
        'the size limit, never reshaped) and has a `.provenance.json` beside it (URL without credentials, date, status, headers).',
        'A run replaces the `recorded/` folders of the sources it called; `git diff` shows what the upstreams changed.',
        '',
        '| File | Source | Request | Status | Recorded | Bytes |',
        '|---|---|---|---|---|---|',
        ...rows,
        '',
      ].join('\n'),
    );
    return out;
  }
}

interface Secret {
  source: string;
  name: string;
  value: string;
}

/** `s` with every configured credential value (plain or URL-encoded) replaced by `<VARIABLE>`. */
function redactText(s: string, secrets: readonly Secret[], found: Set<string>): string {
  let out = s;
  for (const { name, value } of secrets) {
    for (const form of new Set([value, encodeURIComponent(value)])) {
      if (!out.includes(form)) continue;
      out = out.split(form).join(`<${name}>`);
      found.add(name);
    }
  }
  return out;
}

function slug(s: string): string {
  return s
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-.]+|-+$/g, '');
}

function extensionOf(type: string): string {
  if (/json/.test(type)) return '.json';
  if (/xml/.test(type)) return '.xml';
  if (/csv/.test(type)) return '.csv';
  if (/html/.test(type)) return '.html';
  if (/zip/.test(type)) return '.zip';
  if (/javascript/.test(type)) return '.js';
  if (/text/.test(type)) return '.txt';
  return '.bin';
}

/** The body cut at `max` bytes; text at the last line end before it, so an excerpt stays whole lines. */
function trim(body: Buffer, max: number, text: boolean): Buffer {
  if (body.length <= max) return body;
  if (text) {
    const nl = body.lastIndexOf(0x0a, max - 1);
    if (nl > max * 0.5) return body.subarray(0, nl + 1);
  }
  return body.subarray(0, max);
}

/**
 * Source id -> its module folder under src/sources/ (the fixture folder of the same name):
 * found by importing each folder's source declarations and matching them to the registered ones.
 */
export async function sourceFolders(sources: readonly SourceDecl[]): Promise<Map<string, string>> {
  const root = new URL('../../src/sources/', import.meta.url);
  const known = new Set(sources);
  const out = new Map<string, string>();
  for (const folder of readdirSync(root, { withFileTypes: true })) {
    if (!folder.isDirectory()) continue;
    for (const file of ['source.ts', 'sources.ts']) {
      const path = new URL(`${folder.name}/${file}`, root);
      if (!existsSync(path)) continue;
      const mod = (await import(pathToFileURL(path.pathname).href)) as Record<string, unknown>;
      for (const value of Object.values(mod)) {
        const candidates = [value, (value as { source?: unknown } | null)?.source];
        for (const c of candidates) if (known.has(c as SourceDecl)) out.set((c as SourceDecl).id, folder.name);
      }
    }
  }
  return out;
}

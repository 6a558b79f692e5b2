import negotiate from '@fastify/accept-negotiator';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';
import { ifNoneMatchMatches } from './conditional.ts';

/** The content codings the service offers, best first: the same list @fastify/compress is given (http/compression.ts). */
export const ENCODINGS = ['br', 'gzip'] as const;
export type Encoding = (typeof ENCODINGS)[number];

/** The Vary member of every answer that could have been compressed (lowercase, as @fastify/compress looks for it). */
export const ENCODING_VARY = 'accept-encoding';

/** What is prepared once: an answer's bytes and its ETag (and their coding, for a compressed form). */
export interface Representation {
  readonly body: Buffer;
  readonly etag: string;
  readonly encoding?: Encoding;
}

/**
 * COMPRESS_ENABLED and COMPRESS_THRESHOLD_BYTES (config.ts): which answers are sent compressed.
 * The HIT lane and the router's prepared answers (http/send.ts) decide through this, and
 * @fastify/compress (http/compression.ts) gets the same threshold and codings.
 */
export class CompressionPolicy {
  readonly enabled: boolean;
  readonly thresholdBytes: number;
  constructor(enabled: boolean, thresholdBytes: number) {
    this.enabled = enabled;
    this.thresholdBytes = thresholdBytes;
  }

  /** Whether an answer of `size` bytes could be sent compressed: then it varies on Accept-Encoding. */
  varies(size: number): boolean {
    return this.enabled && size >= this.thresholdBytes;
  }

  /** The form of a prepared answer to send for this Accept-Encoding: itself, or its compressed bytes (a promise the first time). */
  choose(r: Representation, acceptEncoding: string | string[] | undefined): Representation | Promise<Representation> {
    if (!this.varies(r.body.length)) return r;
    const coding = encodingFor(acceptEncoding);
    return coding === null ? r : encoded(r, coding);
  }
}

/** Bodies up to this size are compressed at once; larger ones on the zlib thread pool, so the loop stays free. */
const SYNC_MAX_BYTES = 16 * 1024;
const BROTLI_PARAMS = { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } };

/** Accept-Encoding values seen, with their verdict: clients send a handful of distinct ones. */
const verdicts = new Map<string, Encoding | null>();
const MAX_VERDICTS = 64;
const MAX_HEADER_LENGTH = 200;

/**
 * The coding for a request's Accept-Encoding, negotiated as @fastify/compress negotiates it
 * (`*` and `x-gzip` count as gzip), or null for identity.
 */
export function encodingFor(header: string | string[] | undefined): Encoding | null {
  if (typeof header !== 'string' || header === '') return null;
  const known = verdicts.get(header);
  if (known !== undefined) return known;
  const v = negotiate(header.toLowerCase().replace(/\*|x-gzip/g, 'gzip'), [...ENCODINGS, 'identity']);
  const verdict = v === 'br' || v === 'gzip' ? v : null;
  if (header.length <= MAX_HEADER_LENGTH) {
    if (verdicts.size >= MAX_VERDICTS) verdicts.clear();
    verdicts.set(header, verdict);
  }
  return verdict;
}

/** The compressed forms of prepared answers, made at the first request for each coding and gone with the answer. */
const variants = new WeakMap<Representation, Partial<Record<Encoding, Representation | Promise<Representation>>>>();

/**
 * The answer in `encoding`: its bytes compressed once per prepared answer, with an ETag of their
 * own (`"…-gz"`, `"…-br"`), since the bytes differ. A promise while the first compression runs.
 */
export function encoded(r: Representation, encoding: Encoding): Representation | Promise<Representation> {
  let kept = variants.get(r);
  if (!kept) variants.set(r, (kept = {}));
  const have = kept[encoding];
  if (have) return have;
  const etag = `${r.etag.slice(0, -1)}-${encoding === 'br' ? 'br' : 'gz'}"`;
  if (r.body.length <= SYNC_MAX_BYTES) {
    const body = encoding === 'br' ? brotliCompressSync(r.body, BROTLI_PARAMS) : gzipSync(r.body);
    return (kept[encoding] = { body, etag, encoding });
  }
  const slot = kept;
  const pending = new Promise<Representation>((resolve, reject) => {
    const done = (err: Error | null, body: Buffer) => {
      if (err) {
        delete slot[encoding];
        reject(err);
        return;
      }
      const made = { body, etag, encoding };
      slot[encoding] = made;
      resolve(made);
    };
    if (encoding === 'br') brotliCompress(r.body, { params: { ...BROTLI_PARAMS.params, [constants.BROTLI_PARAM_SIZE_HINT]: r.body.length } }, done);
    else gzip(r.body, done);
  });
  return (kept[encoding] = pending);
}

/** If-None-Match against an answer sent in some coding: its own tag or the identity one (proxies may weaken or strip the suffix). */
export function notModifiedFor(ifNoneMatch: string | undefined, sent: Representation, identity: Representation): boolean {
  return ifNoneMatch !== undefined && (ifNoneMatchMatches(ifNoneMatch, sent.etag) || (sent !== identity && ifNoneMatchMatches(ifNoneMatch, identity.etag)));
}

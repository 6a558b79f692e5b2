import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ifNoneMatchMatches } from './conditional.ts';
import { CHANNEL_VARY } from './pagination.ts';
import { ENCODING_VARY, notModifiedFor, type CompressionPolicy, type Representation } from './encodings.ts';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * 200 with the given ETag (computed once, e.g. for an answer prepared once and sent many times),
 * or 304 without a body when If-None-Match matches (RFC 9110).
 */
export function sendTagged(req: FastifyRequest, reply: FastifyReply, body: string | Buffer | Readable, etag: string, cacheControl: string) {
  reply.headers({ etag, 'cache-control': cacheControl });
  addVary(reply, `${ENCODING_VARY}, ${CHANNEL_VARY}`);
  if (ifNoneMatchMatches(req.headers['if-none-match'], etag)) return reply.code(304).send();
  return reply.header('content-type', JSON_TYPE).send(body);
}

/**
 * A prepared JSON answer (ETag and Vary of the route set already) in the coding the request
 * accepts, as the HIT lane sends it (http/hit-lane.ts): compressed bytes made once per answer, an
 * ETag per coding, If-None-Match matching either tag. @fastify/compress leaves it alone (it is
 * encoded already, or below the threshold).
 */
export async function sendPrepared(req: FastifyRequest, reply: FastifyReply, compression: CompressionPolicy, r: Representation) {
  let sent = r;
  try {
    sent = await compression.choose(r, req.headers['accept-encoding']);
  } catch {
    // A failed compression sends the identity bytes, as the lane does.
  }
  if (compression.varies(r.body.length)) addVary(reply, ENCODING_VARY);
  reply.header('etag', sent.etag);
  if (notModifiedFor(req.headers['if-none-match'], sent, r)) return reply.code(304).send();
  if (sent.encoding) reply.header('content-encoding', sent.encoding);
  return reply.header('content-type', JSON_TYPE).send(sent.body);
}

/**
 * Adds to Vary, keeping what the CORS wrapper set on the raw response (Origin, for a list of
 * allowed origins): a Vary given to Fastify would replace it when Node merges the headers.
 */
export function addVary(reply: FastifyReply, value: string) {
  const prev = reply.getHeader('vary');
  if (prev !== undefined && value === ENCODING_VARY && String(prev).toLowerCase().includes(ENCODING_VARY)) return;
  reply.header('vary', prev === undefined ? value : `${String(prev)}, ${value}`);
}

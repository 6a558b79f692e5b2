import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import { ENCODINGS, type CompressionPolicy } from './encodings.ts';

/**
 * Compression on the router's path: @fastify/compress with the policy's threshold and codings, the
 * ones the HIT lane and prepared answers use (http/encodings.ts). It leaves alone what is encoded
 * already (prepared answers send their own compressed bytes), bodies under the threshold, and
 * streams (a stream's head and events are written past Fastify's reply, and text/event-stream is
 * not among its types).
 */
export async function registerCompression(app: FastifyInstance, policy: CompressionPolicy) {
  if (!policy.enabled) return;
  await app.register(compress, { global: true, threshold: policy.thresholdBytes, encodings: [...ENCODINGS] });
}

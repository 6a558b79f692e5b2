import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { streamCadence, streamRetrySeconds, type DataType } from '../core/data-type.ts';
import type { Fanout } from '../streams/fanout.ts';
import { StreamHub } from '../streams/hub.ts';
import { LocalFanout } from '../streams/local-fanout.ts';
import type { RouteContext } from './context.ts';
import type { RouteDoc } from '../http/route-doc.ts';

/** `<data path>/stream`: the stream of a data type for clients that cannot set Accept (curl, a link). */
export const STREAM_SUFFIX = '/stream';
/** EventSource waits `retry` before reconnecting: the type's cadence, at most this, so a restarted server is found again soon. */

export interface StreamRoutes {
  /** Whether the type streams (the catalog decides: core/data-type.ts streamCadence). */
  streams(dt: DataType): boolean;
  /** Whether this request to a data route asks for its stream: the /stream path, or Accept: text/event-stream. */
  wants(dt: DataType, req: FastifyRequest): boolean;
  /**
   * Answers with the stream (or a problem before any byte of it: 404, 422, 429) and resolves true;
   * resolves false, having sent nothing, for a city outside the type's coverage: nothing would ever
   * arrive on that stream, so the caller answers the not_covered envelope (an EventSource then stops).
   */
  serve(dt: DataType, req: FastifyRequest, reply: FastifyReply, citySlug: string | null, input: Record<string, unknown>): Promise<boolean>;
}

/**
 * The Server-Sent Events of the data routes (routes/data-types.ts hooks them in). The hub, and
 * with REDIS_URL its Redis connections, are made on the first stream; it ends every stream when
 * the app closes, before the server waits for its connections.
 */
export function streamRoutes(app: FastifyInstance, { rt, pipeline }: Pick<RouteContext, 'rt' | 'pipeline'>): StreamRoutes {
  const c = rt.config;
  let hub: Promise<StreamHub> | null = null;
  const hubOf = () =>
    (hub ??= (async () => {
      const local = new LocalFanout(c.streamHistoryEvents);
      const fanout: Fanout = c.redisUrl
        ? new (await import('../streams/resilient-fanout.ts')).ResilientFanout(
            new (await import('../streams/redis-fanout.ts')).RedisFanout(c.redisUrl, c.redisKeyPrefix, c.streamHistoryEvents, rt.store),
            local,
            (msg) => rt.log.warn(msg),
          )
        : local;
      const limits = {
        pollMs: c.streamPollMs,
        heartbeatMs: c.streamHeartbeatMs,
        maxPerClient: c.streamMaxPerClient,
        maxTotal: c.streamMaxTotal,
        maxBufferedBytes: c.streamMaxBufferedBytes,
      };
      const made = new StreamHub(pipeline, fanout, limits, (msg, err) => rt.log.warn({ err: String(err) }, msg));
      rt.metrics.streamStats = () => ({ open: made.size, keys: made.keys });
      return made;
    })());
  app.addHook('preClose', async () => {
    if (hub) await (await hub).close();
  });
  return {
    streams: (dt) => streamCadence(dt) !== null,
    wants(dt, req) {
      if (streamCadence(dt) === null) return false;
      const accept = req.headers.accept;
      return (req.routeOptions.url ?? '').endsWith(STREAM_SUFFIX) || (typeof accept === 'string' && accept.includes('text/event-stream'));
    },
    async serve(dt, req, reply, citySlug, input) {
      const query = declaredParams(dt, input);
      const h = await hubOf();
      const release = h.reserve(req.ip);
      let current;
      try {
        // The current envelope, and any problem (unknown city, bad parameter) while it can still be sent as one.
        current = await pipeline.run(dt, citySlug, query, { noPaging: true });
      } catch (err) {
        release();
        throw err;
      }
      if (current.status === 'not_covered') {
        release();
        return false;
      }
      // The stream's head is written past Fastify's reply: what the hooks set on it (RateLimit, an
      // alias's Deprecation and Link) goes to the raw response, whose headers the head carries.
      for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value);
      reply.hijack();
      const lastEventId = req.headers['last-event-id'];
      const city = current.city?.slug ?? null;
      await h.subscribe({
        key: streamKey(dt, city, query),
        dt,
        city,
        query,
        current,
        lastEventId: typeof lastEventId === 'string' && lastEventId !== '' ? lastEventId : null,
        retryMs: (streamRetrySeconds(dt) ?? 300) * 1000,
        res: reply.raw,
        release,
      });
      return true;
    },
  };
}

/** A streaming type's route docs: the text/event-stream answer (http/openapi.ts) and how to ask for it. */
export function streamsDoc(dt: DataType, doc: RouteDoc): RouteDoc {
  const retry = streamRetrySeconds(dt);
  if (retry === null) return doc;
  return {
    ...doc,
    stream: true,
    description:
      // How streams work is told once, in the EventStream schema; the operation adds its retry.
      `${doc.description} Streams (EventStream): \`retry\` ${retry} s.`,
  };
}

/** Only the type's declared parameters make a stream: any other query member would be a poller of its own for the same answer. */
function declaredParams(dt: DataType, input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of dt.params ?? []) if (input[p.name] !== undefined) out[p.name] = input[p.name];
  return out;
}

/** One stream key per type, canonical city and parameter values: its subscribers share one poller and one history. */
function streamKey(dt: DataType, city: string | null, query: Record<string, unknown>): string {
  const params = Object.keys(query)
    .sort()
    .map((k) => `${encodeURIComponent(k)}=${encodeURIComponent(String(query[k]))}`)
    .join('&');
  return `${dt.type}/${city ?? '-'}?${params}`;
}

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';

/**
 * A fake upstream on loopback: serves fixture files (or computed bodies) at the upstreams'
 * real paths, counts every hit, and can play dead (connection reset), slow or failing.
 */
export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Path relative to test/fixtures/. */
  file?: string;
  json?: unknown;
  delayMs?: number;
  gzip?: boolean;
}
export type Responder = Reply | ((req: IncomingMessage, url: URL, body: string) => Reply | Promise<Reply>);

export const FIXTURES = new URL('../fixtures/', import.meta.url);

export function fixture(path: string): Buffer {
  return readFileSync(new URL(path, FIXTURES));
}

export class FakeUpstream {
  private server: Server | null = null;
  private readonly routes: { method: string; path: string | RegExp; respond: Responder }[] = [];
  readonly hits = new Map<string, number>();
  readonly requests: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[] = [];
  mode: 'normal' | 'down' | 'hang' | 'error' = 'normal';
  /** Answers every request itself when set (fault injection: see bench/reliability/faults.ts). */
  intercept: ((req: IncomingMessage, res: ServerResponse) => void) | null = null;
  /** Rewrites every body before it is sent (a payload's members removed or retyped: test/adapter-mutations.test.ts). */
  transform: ((payload: Buffer, contentType: string, url: URL) => Buffer) | null = null;
  url = '';

  on(method: string, path: string | RegExp, respond: Responder): this {
    this.routes.unshift({ method, path, respond });
    return this;
  }
  get(path: string | RegExp, respond: Responder) {
    return this.on('GET', path, respond);
  }
  post(path: string | RegExp, respond: Responder) {
    return this.on('POST', path, respond);
  }

  /** Hits whose path starts with `prefix` (all hits without one). */
  count(prefix = ''): number {
    let n = 0;
    for (const [k, v] of this.hits) if (k.startsWith(prefix)) n += v;
    return n;
  }
  reset() {
    this.hits.clear();
    this.requests.length = 0;
    this.mode = 'normal';
    this.intercept = null;
    this.transform = null;
  }

  async start(port = 0): Promise<this> {
    this.server = createServer(async (req, res) => {
      const url = new URL(req.url ?? '/', 'http://fake');
      this.hits.set(url.pathname, (this.hits.get(url.pathname) ?? 0) + 1);
      let body = '';
      for await (const chunk of req) body += chunk;
      this.requests.push({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body });
      if (this.intercept) {
        this.intercept(req, res);
        return;
      }
      if (this.mode === 'down') {
        req.socket.destroy();
        return;
      }
      if (this.mode === 'hang') return;
      if (this.mode === 'error') {
        res.writeHead(503, { 'content-type': 'text/plain' }).end('upstream down');
        return;
      }
      const route = this.routes.find((r) => r.method === req.method && (typeof r.path === 'string' ? r.path === url.pathname : r.path.test(url.pathname)));
      if (!route) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end(`fake upstream: no fixture for ${req.method} ${url.pathname}`);
        return;
      }
      try {
        const reply = typeof route.respond === 'function' ? await route.respond(req, url, body) : route.respond;
        if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
        let payload: Buffer = reply.file
          ? fixture(reply.file)
          : reply.json !== undefined
            ? Buffer.from(JSON.stringify(reply.json))
            : Buffer.from(reply.body ?? '');
        const headers: Record<string, string> = { 'content-type': reply.json !== undefined ? 'application/json' : guessType(reply.file), ...reply.headers };
        if (this.transform) payload = this.transform(payload, headers['content-type'] ?? '', url);
        if (reply.gzip) {
          payload = gzipSync(payload);
          headers['content-encoding'] = 'gzip';
        }
        res.writeHead(reply.status ?? 200, headers).end(payload);
      } catch (err) {
        res.writeHead(500).end(String(err));
      }
    });
    this.server.keepAliveTimeout = 5000;
    await new Promise<void>((r) => this.server!.listen(port, '127.0.0.1', () => r()));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Ends every open connection (e.g. the hung ones of `mode = 'hang'`), keeping the server up. */
  dropConnections() {
    this.server?.closeAllConnections();
  }

  async stop() {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise((r) => this.server!.close(r));
    this.server = null;
  }
}

function guessType(file?: string): string {
  if (!file) return 'text/plain';
  if (file.endsWith('.json')) return 'application/json';
  if (file.endsWith('.xml')) return 'application/xml';
  if (file.endsWith('.csv')) return 'text/csv';
  if (file.endsWith('.pb')) return 'application/octet-stream';
  return 'text/plain';
}

import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';

/** Whether the hop at `address` (0: the socket's peer) may name the one before it in X-Forwarded-For. */
export type ProxyTrust = (address: string, hop: number) => boolean;

/**
 * TRUST_PROXY (config.ts) as the trust function that both Fastify (its `trustProxy` option, so
 * `request.ip`) and the HIT lane use, so the two paths count one client under one key: off, any
 * proxy, the nearest `n` hops, or the proxies' addresses/CIDRs.
 */
export function proxyTrust(setting: boolean | number | readonly string[]): ProxyTrust | false {
  if (setting === false) return false;
  if (setting === true) return () => true;
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return proxyAddr.compile([...setting]);
}

/** The client's address as Fastify's `request.ip` reads it under the same trust (fastify/lib/request.js). */
export function clientAddress(req: IncomingMessage, trust: ProxyTrust | false): string | undefined {
  if (trust === false) return req.socket.remoteAddress;
  const all = proxyAddr.all(req, trust);
  return all[all.length - 1];
}

import type { Config } from '../core/config.ts';

/**
 * DNS-rebinding guard of the Streamable HTTP transport (MCP spec: servers MUST validate Origin).
 * A page on a foreign site that rebinds its name to 127.0.0.1 reaches us with its own Host and
 * Origin; both are checked. Requests without Origin (non-browser clients) pass the Origin check.
 */
export interface GuardVerdict {
  ok: boolean;
  reason?: string;
}

/** `host:port`, `[v6]:port` or a bare name -> the lower-case host name without port. */
function hostName(hostHeader: string): string {
  const h = hostHeader.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  const i = h.lastIndexOf(':');
  return i === -1 ? h : h.slice(0, i);
}

const HOST_SHAPE = /^[a-z0-9.\-:[\]]{1,100}$/;
const ORIGIN_SHAPE = /^[a-z][a-z0-9+.-]*:\/\/[a-z0-9.\-:[\]]{1,100}$/;

/** A header value quoted back only when it has the plain shape of a host or origin (never markup). */
function shown(value: string, shape: RegExp): string {
  return shape.test(value) ? ` "${value}"` : '';
}

export function allowedHosts(config: Pick<Config, 'mcpAllowedHosts' | 'publicBaseUrl' | 'localBaseUrl'>): Set<string> {
  const out = new Set(config.mcpAllowedHosts.map((h) => h.toLowerCase()));
  // The operator's announced base URLs name this service, so their hosts are ours too.
  for (const base of [config.publicBaseUrl, config.localBaseUrl]) if (base) out.add(new URL(base).hostname.toLowerCase());
  return out;
}

export function checkRequest(
  config: Pick<Config, 'mcpAllowedHosts' | 'mcpAllowedOrigins' | 'publicBaseUrl' | 'localBaseUrl'>,
  hosts: Set<string>,
  hostHeader: string | undefined,
  originHeader: string | undefined,
): GuardVerdict {
  if (!hostHeader) return { ok: false, reason: 'missing Host header' };
  const host = hostHeader.trim().toLowerCase();
  if (!hosts.has(host) && !hosts.has(hostName(host))) return { ok: false, reason: `Host${shown(host, HOST_SHAPE)} is not allowed` };
  if (originHeader === undefined) return { ok: true };
  const origin = originHeader.trim().toLowerCase();
  if (config.mcpAllowedOrigins.some((o) => o.toLowerCase().replace(/\/+$/, '') === origin)) return { ok: true };
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return { ok: false, reason: 'Origin is not allowed' };
  }
  // Same host as the (already allowed) Host header: a page served by this very service.
  if (parsed.host === host) return { ok: true };
  return { ok: false, reason: `Origin${shown(parsed.origin, ORIGIN_SHAPE)} is not allowed` };
}

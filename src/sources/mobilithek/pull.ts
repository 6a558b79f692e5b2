import { readFile } from 'node:fs/promises';
import type { SourceHttp } from '../../core/adapter-http.ts';
import { UpstreamError } from '../../core/upstream-error.ts';

/** Credentials every Mobilithek subscription needs besides its own subscription id. */
export const CERT_PATH = 'MOBILITHEK_CERT_PATH';
export const CERT_PASSWORD = 'MOBILITHEK_CERT_PASSWORD';

/** Mobilithek's pull endpoint; each offer is one subscription of the same machine certificate. */
export const MOBILITHEK_BASE = 'https://mobilithek.info:8443/mobilithek/api/v1.0';

/** The certificate file read once per path (the same bytes keep one TLS pool in the upstream client). */
const certs = new Map<string, Promise<Buffer>>();
function certificate(path: string): Promise<Buffer> {
  let c = certs.get(path);
  if (!c) {
    c = readFile(path).catch((err: unknown) => {
      certs.delete(path);
      throw new UpstreamError('network', `Mobilithek certificate not readable (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
    });
    certs.set(path, c);
  }
  return c;
}

/**
 * The three pull URLs Mobilithek offers (research §8): `path` (`/subscription/{id}/clientPullService`),
 * `query` (`/subscription?subscriptionID=`) and `container` (`/container/subscription?subscriptionID=`,
 * e.g. Frankfurt's DATEX II V3 parking, whose SOAP endpoint answers 405).
 */
export type PullStyle = 'path' | 'query' | 'container';
const PULL_PATHS: Record<PullStyle, string> = {
  path: '/subscription/{id}/clientPullService',
  query: '/subscription',
  container: '/container/subscription',
};

/**
 * One pull of a subscription (mutual TLS with the machine certificate). Null when the
 * subscription is active but has nothing to deliver: HTTP 422, or an empty 200 body.
 */
export async function pullSubscription(
  http: SourceHttp,
  subscriptionEnv: string,
  style: PullStyle = 'path',
  accept = 'application/xml',
): Promise<Buffer | null> {
  const id = http.credential(subscriptionEnv);
  // A plain-http base URL (a local proxy that terminates TLS with the certificate) takes no client certificate.
  const tls = http.baseUrl.startsWith('https:')
    ? { pfx: await certificate(http.credential(CERT_PATH)), passphrase: http.credential(CERT_PASSWORD) }
    : undefined;
  const res = await http.request(PULL_PATHS[style], {
    ...(style === 'path' ? { params: { id } } : {}),
    query: { subscriptionID: id },
    // Mobilithek answers an empty 400 without gzip.
    headers: { accept, 'accept-encoding': 'gzip' },
    ...(tls ? { clientCertificate: tls } : {}),
    okStatuses: [422],
  });
  if (res.status === 422 || res.body.length === 0) return null;
  return res.body;
}

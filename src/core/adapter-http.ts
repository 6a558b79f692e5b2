/**
 * The upstream as an adapter sees it: one source's configured base URL, timeout, size cap and
 * rate limit already applied. The pipeline implements it (BoundSourceHttp in pipeline/source-http.ts); adapters
 * depend only on this contract.
 */
export interface CallOptions {
  /** `{name}` placeholders of the path, each value percent-encoded as one segment. */
  params?: Record<string, string | number>;
  query?: Record<string, string | number | boolean | undefined | null>;
  headers?: Record<string, string>;
  method?: 'GET' | 'POST';
  /** URL-encoded form body (POST). */
  form?: Record<string, string>;
  /** Raw request body sent byte-exact (e.g. a signed JSON POST); the caller sets content-type. */
  body?: string;
  timeoutMs?: number;
  maxBytes?: number;
  signal?: AbortSignal;
  /** Statuses answered without throwing (e.g. 404 meaning "no such id"). */
  okStatuses?: number[];
  /** A client certificate for mutual TLS (PKCS#12 bytes and its password), e.g. Mobilithek's machine certificate. */
  clientCertificate?: { pfx: Buffer; passphrase: string };
}

export interface UpstreamResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  url: string;
}

export type XmlBody = Record<string, unknown>;

export interface SourceHttp {
  /** The configured base URL of the source. */
  readonly baseUrl: string;
  /** A further configured URL of the source (SourceDecl.urls) by key. */
  url(key: string): string;
  /** A configured credential, or '' when missing (the pipeline disables the source then). */
  credential(name: string): string;
  /** Call a path under the base URL (or under `base`, an absolute URL from `url()`). */
  request(path: string, o?: CallOptions & { base?: string }): Promise<UpstreamResponse>;
  /** JSON body; unparseable JSON is an UpstreamError of kind `parse`. */
  json<T>(path: string, o?: CallOptions & { base?: string }): Promise<T>;
  text(path: string, o?: CallOptions & { base?: string; encoding?: BufferEncoding | 'latin1' }): Promise<string>;
  /** XML parsed with attributes as plain keys and every value kept as text. */
  xml<T = XmlBody>(path: string, o?: CallOptions & { base?: string }): Promise<T>;
  /** The same client, its calls aborted by `signal` (a job's shutdown, a request's deadline). */
  withSignal(signal: AbortSignal): SourceHttp;
}

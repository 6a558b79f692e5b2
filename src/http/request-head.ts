/** The head of a plain GET request, as the socket lane (http/socket-lane.ts) reads it. */
export interface PlainGet {
  /** The request target exactly as sent (path and query), decoded as Node's parser does (latin1). */
  url: string;
  /** The headers the lane reads (READ), names in lower case; Host only as present (its value is not decoded). */
  headers: Record<string, string>;
}

/** Node's default limit for a request head (--max-http-header-size): a larger one is Node's to refuse (431). */
export const MAX_HEAD_BYTES = 16 * 1024;

/** The headers an answer of the lane depends on; each may occur once. */
const READ = new Set(['host', 'connection', 'if-none-match', 'origin', 'user-agent', 'x-stadtdaten-channel']);
/** Headers that give a request a body, another protocol or an expectation: such a request is Node's to handle. */
const NOT_PLAIN = new Set(['content-length', 'transfer-encoding', 'upgrade', 'expect', 'te', 'http2-settings']);

/** The names the reader knows, by length, as bytes in lower case: a header name is matched against these without decoding it. */
const KNOWN = new Map<number, { name: string; bytes: Buffer }[]>();
for (const name of [...READ, ...NOT_PLAIN]) {
  const list = KNOWN.get(name.length) ?? [];
  list.push({ name, bytes: Buffer.from(name) });
  KNOWN.set(name.length, list);
}

const CR = 13;
const LF = 10;
const COLON = 58;
const SPACE = 32;
const TAB = 9;
const GET_SLASH = Buffer.from('GET /');
const HTTP11 = Buffer.from(' HTTP/1.1');

/** RFC 9110 token characters (header names). */
const TOKEN = new Uint8Array(256);
for (const c of "!#$%&'*+-.^_`|~") TOKEN[c.charCodeAt(0)] = 1;
for (let c = 48; c <= 57; c++) TOKEN[c] = 1;
for (let c = 65; c <= 90; c++) TOKEN[c] = TOKEN[c + 32] = 1;
/** Characters of a request target: visible ASCII and obs-text, as Node's parser takes them. */
const TARGET = new Uint8Array(256);
for (let c = 0x21; c <= 0xff; c++) TARGET[c] = c === 0x7f ? 0 : 1;
/** Characters of a header value: anything but control characters (tab allowed). */
const VALUE = new Uint8Array(256);
for (let c = 0; c <= 0xff; c++) VALUE[c] = (c >= 0x20 && c !== 0x7f) || c === TAB ? 1 : 0;

/**
 * Reads the head that spans buf[start, end) (end is where its blank line's CR LF CR LF begins)
 * when it is the plainest form of a request: `GET /… HTTP/1.1`, strict header lines, a Host, no
 * body, no upgrade, no `Connection` other than keep-alive, none of the headers it reads twice.
 * Anything else gives null, and the caller leaves the bytes to Node's own parser, which accepts or
 * refuses them as it always does: this reader never refuses a request, it only declines to answer it.
 * It reads bytes, not a decoded string: it runs once per request on the fastest path the server has.
 */
export function parsePlainGet(buf: Buffer, start: number, end: number): PlainGet | null {
  if (end - start > MAX_HEAD_BYTES || !bytesAt(buf, start, GET_SLASH)) return null;
  let lineEnd = start + GET_SLASH.length;
  while (lineEnd < end && TARGET[buf[lineEnd] ?? 0] === 1) lineEnd++;
  const urlEnd = lineEnd;
  if (!bytesAt(buf, urlEnd, HTTP11)) return null;
  lineEnd += HTTP11.length;
  if (lineEnd !== end && buf[lineEnd] !== CR) return null;
  const headers: Record<string, string> = {};
  let pos = lineEnd;
  while (pos < end) {
    // pos is at the CR LF that ends the previous line.
    if (buf[pos + 1] !== LF) return null;
    const from = pos + 2;
    let colon = from;
    while (colon < end && TOKEN[buf[colon] ?? 0] === 1) colon++;
    if (colon === from || buf[colon] !== COLON) return null;
    let next = colon + 1;
    while (next < end && VALUE[buf[next] ?? 0] === 1) next++;
    if (next !== end && buf[next] !== CR) return null;
    const name = knownName(buf, from, colon - from);
    if (name !== null) {
      if (NOT_PLAIN.has(name)) return null;
      if (READ.has(name)) {
        if (name in headers) return null;
        let v = colon + 1;
        let vEnd = next;
        while (v < vEnd && (buf[v] === SPACE || buf[v] === TAB)) v++;
        while (vEnd > v && (buf[vEnd - 1] === SPACE || buf[vEnd - 1] === TAB)) vEnd--;
        // Only the presence of Host matters here.
        const value = name === 'host' ? '' : buf.toString('latin1', v, vEnd);
        if (name === 'connection' && value.toLowerCase() !== 'keep-alive') return null;
        headers[name] = value;
      }
    }
    pos = next;
  }
  return !('host' in headers) ? null : { url: buf.toString('latin1', start + 4, urlEnd), headers };
}

/** The known header name at buf[from, from + length), compared without regard to case, or null. */
function knownName(buf: Buffer, from: number, length: number): string | null {
  const candidates = KNOWN.get(length);
  if (candidates === undefined) return null;
  next: for (const { name, bytes } of candidates) {
    for (let i = 0; i < length; i++) {
      const c = buf[from + i] ?? 0;
      // ASCII letters fold to lower case; the other token characters must match exactly.
      if ((c >= 65 && c <= 90 ? c + 32 : c) !== bytes[i]) continue next;
    }
    return name;
  }
  return null;
}

function bytesAt(buf: Buffer, at: number, bytes: Buffer): boolean {
  for (let i = 0; i < bytes.length; i++) if (buf[at + i] !== bytes[i]) return false;
  return true;
}

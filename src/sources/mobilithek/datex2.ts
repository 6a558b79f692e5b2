import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { UpstreamError } from '../../core/upstream-error.ts';

/**
 * DATEX II (v2, and v3 in its messageContainer) read as a stream: only the subtrees of the wanted record element are kept
 * (situationRecord, siteMeasurements ...), so a large publication never becomes a whole DOM.
 * Namespace prefixes are dropped (feeds use `ns2:`, `d2:` or a default namespace alike);
 * `xsi:type` becomes `type` without its prefix. DOCTYPE and ENTITY declarations are refused.
 */
export interface XNode {
  name: string;
  attrs: Record<string, string>;
  text: string;
  children: XNode[];
}

export interface Datex {
  /** Local name of the root's publication (`payloadPublication` xsi:type), e.g. SituationPublication. */
  publication: string | null;
  publicationTime: string | null;
  records: XNode[];
}

const local = (name: string) => name.slice(name.indexOf(':') + 1);
/** Reading in slices keeps the parser's buffers small for bodies of many megabytes. */
const SLICE = 64 * 1024;

export function readDatex(body: Buffer, record: string): Datex {
  const head = body.subarray(0, 4096).toString('utf8');
  if (/<!DOCTYPE|<!ENTITY/i.test(head)) throw new UpstreamError('parse', 'DATEX II with a DOCTYPE/ENTITY declaration refused');
  const parser = new SaxesParser({ xmlns: false });
  const out: Datex = { publication: null, publicationTime: null, records: [] };
  const stack: XNode[] = [];
  let inTime = false;
  let timeText = '';
  let failure: Error | null = null;
  parser.on('doctype', () => {
    failure ??= new UpstreamError('parse', 'DATEX II with a DOCTYPE declaration refused');
  });
  parser.on('error', (err) => {
    failure ??= new UpstreamError('parse', `DATEX II not well-formed: ${err.message.split('\n')[0]}`);
  });
  parser.on('opentag', (tag: SaxesTagPlain) => {
    const name = local(tag.name);
    // V2 names the publication on payloadPublication, V3 (messageContainer) on payload.
    if ((name === 'payloadPublication' || name === 'payload') && tag.attributes['xsi:type']) out.publication ??= local(tag.attributes['xsi:type']);
    if (name === 'publicationTime' && out.publicationTime === null && stack.length === 0) inTime = true;
    if (stack.length === 0 && name !== record) return;
    const attrs: Record<string, string> = {};
    for (const [k, v] of Object.entries(tag.attributes)) attrs[k === 'xsi:type' ? 'type' : local(k)] = k === 'xsi:type' ? local(v) : v;
    const node: XNode = { name, attrs, text: '', children: [] };
    stack.at(-1)?.children.push(node);
    stack.push(node);
  });
  parser.on('text', (t: string) => {
    if (inTime) timeText += t;
    const top = stack.at(-1);
    if (top) top.text += t;
  });
  parser.on('closetag', (tag: SaxesTagPlain) => {
    if (inTime) {
      out.publicationTime = timeText.trim() || null;
      inTime = false;
    }
    if (stack.length === 0) return;
    const node = stack.pop()!;
    node.text = node.text.trim();
    if (stack.length === 0 && local(tag.name) === record) out.records.push(node);
  });
  // Slices end on a character start, so no multi-byte UTF-8 character is cut in two.
  for (let from = 0; from < body.length && !failure;) {
    let end = Math.min(from + SLICE, body.length);
    while (end < body.length && (body[end]! & 0xc0) === 0x80) end--;
    parser.write(body.subarray(from, end).toString('utf8'));
    from = end;
  }
  if (!failure) parser.close();
  if (failure) throw failure;
  return out;
}

/** Depth-first search of the first descendant with this local name. */
export function find(node: XNode, name: string): XNode | null {
  for (const c of node.children) {
    if (c.name === name) return c;
    const deeper = find(c, name);
    if (deeper) return deeper;
  }
  return null;
}

export function findAll(node: XNode, name: string, out: XNode[] = []): XNode[] {
  for (const c of node.children) {
    if (c.name === name) out.push(c);
    findAll(c, name, out);
  }
  return out;
}

export const textOf = (node: XNode | null): string | null => (node && node.text !== '' ? node.text : null);

export function numberAt(node: XNode | null, name: string): number | null {
  const t = textOf(node ? find(node, name) : null);
  if (t === null) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

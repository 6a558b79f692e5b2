import { XMLParser } from 'fast-xml-parser';
import { UpstreamError } from '../../core/upstream-error.ts';

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseAttributeValue: false,
  parseTagValue: false,
  // Station and path names arrive as numeric character references (M&#252;nchen).
  htmlEntities: true,
  isArray: (name) => name === 's' || name === 'm',
});

/** Parses a Timetables XML body; DTDs are refused outright (no entity expansion from upstream). */
export function parseTimetableXml(body: string): TimetableXml {
  if (/<!DOCTYPE|<!ENTITY/i.test(body)) throw new UpstreamError('parse', 'DB Timetables XML with a DOCTYPE/ENTITY declaration refused');
  let doc: { timetable?: TimetableXml | '' };
  try {
    doc = parser.parse(body);
  } catch {
    throw new UpstreamError('parse', 'unparseable XML from DB Timetables');
  }
  if (doc.timetable === undefined) throw new UpstreamError('parse', 'DB Timetables answer without <timetable>');
  // An hour without trains is an empty element: <timetable station="..."/>.
  return doc.timetable === '' ? { s: [] } : { ...doc.timetable, s: doc.timetable.s ?? [] };
}

/** Attributes as the Timetables schema names them (all strings in XML). */
export interface EventXml {
  pt?: string;
  ct?: string;
  pp?: string;
  cp?: string;
  ppth?: string;
  cpth?: string;
  ps?: string;
  cs?: string;
  clt?: string;
  l?: string;
  hi?: string;
  pde?: string;
  cde?: string;
  m?: MessageXml[];
}
export interface MessageXml {
  id?: string;
  t?: string;
  c?: string;
  cat?: string;
  ts?: string;
  from?: string;
  to?: string;
  pr?: string;
  del?: string;
  ext?: string;
  int?: string;
}
export interface StopXml {
  id: string;
  eva?: string;
  tl?: { f?: string; t?: string; o?: string; c?: string; n?: string };
  ar?: EventXml;
  dp?: EventXml;
  m?: MessageXml[];
}
export interface TimetableXml {
  station?: string;
  eva?: string;
  s: StopXml[];
}

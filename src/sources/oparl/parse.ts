import type { CouncilPaper } from '../../core/records/city-base.ts';
import { hasZone, toBerlinIso } from '../../core/time.ts';
import { UpstreamError } from '../../core/upstream-error.ts';

/** OParl 1.0/1.1 objects (https://oparl.org/spezifikation), only the members used here. */
export interface OparlSystemObject {
  id?: string;
  type?: string;
  name?: string;
  license?: string;
  body?: string;
}

export interface OparlBody {
  id?: string;
  name?: string;
  shortName?: string;
  paper?: string;
}

export interface OparlFile {
  accessUrl?: string;
  downloadUrl?: string;
  mimeType?: string;
}

export interface OparlPaper {
  id?: string;
  name?: string;
  reference?: string;
  date?: string;
  paperType?: string;
  mainFile?: OparlFile | string;
  web?: string;
  created?: string;
  modified?: string;
  deleted?: boolean;
}

/** An OParl list page: `data` plus `links.next` while more pages follow. */
export interface OparlList<T> {
  data?: T[];
  links?: { next?: string };
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' && v.trim() !== 'N/A' ? v.trim() : null);
/** Names carry the line breaks of the council system's input (ALLRIS: `…Beschaffung\r\n(eRis: DS V/3966)`). */
const text = (v: unknown): string | null => str(v)?.replace(/\s+/g, ' ') ?? null;
/** A link only when absolute: ALLRIS writes `web` as `N/Avo020.asp?…` when its base URL is not configured. */
const link = (v: unknown): string | null => {
  const s = str(v);
  return s && /^https?:\/\//i.test(s) ? s : null;
};

export function assertSystem(body: OparlSystemObject): string {
  if (!body || typeof body !== 'object' || !String(body.type ?? '').includes('/System') || !str(body.body)) {
    throw new UpstreamError('parse', 'OParl System object without a body list');
  }
  return body.body!;
}

export function assertList<T>(body: OparlList<T>, what: string): T[] {
  if (!body || typeof body !== 'object' || !Array.isArray(body.data)) throw new UpstreamError('parse', `OParl ${what} list without data`);
  return body.data;
}

/** OParl times are ISO 8601 with an offset; one without (against the spec) is ambiguous and left out. */
function zoned(v: unknown): string | null {
  const s = str(v);
  if (!s || Number.isNaN(Date.parse(s))) return null;
  return hasZone(s) ? toBerlinIso(s) : null;
}

export function parsePaper(p: OparlPaper): CouncilPaper {
  const file = typeof p.mainFile === 'object' && p.mainFile !== null ? p.mainFile : null;
  const day = str(p.date)?.slice(0, 10) ?? null;
  return {
    id: str(p.id),
    name: text(p.name),
    reference: str(p.reference),
    date: day && /^\d{4}-\d{2}-\d{2}$/.test(day) ? day : null,
    paper_type: str(p.paperType),
    main_file_url: link(file?.downloadUrl) ?? link(file?.accessUrl) ?? (typeof p.mainFile === 'string' ? link(p.mainFile) : null),
    main_file_mime_type: str(file?.mimeType),
    web_url: link(p.web),
    modified: zoned(p.modified) ?? zoned(p.created),
  };
}

/** Newest first by date, then by last change. */
export function byNewest(a: CouncilPaper, b: CouncilPaper): number {
  return (b.date ?? '').localeCompare(a.date ?? '') || (b.modified ?? '').localeCompare(a.modified ?? '');
}

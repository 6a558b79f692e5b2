import type { CouncilPaper } from '../../core/records/city-base.ts';
import { hasZone, toBerlinIso } from '../../core/time.ts';
import { z } from '../../core/schema.ts';
import { shaped } from '../../core/upstream-shape.ts';

const optText = z.string().nullish();

/**
 * OParl 1.0/1.1 objects (https://oparl.org/spezifikation), only the members used here. A System names its body
 * list, and its `id` (required by the spec) says which host its links are on, so they are followed on the
 * configured URL's host.
 */
const SystemShape = z.looseObject({
  id: z.string(),
  type: z.string().refine((t) => t.includes('/System'), 'not an OParl System'),
  name: optText,
  license: optText,
  // The link to the body list is followed: a URL, as OParl writes every link.
  body: z.string().refine((u) => URL.canParse(u), 'not a URL'),
});

export type OparlSystemObject = z.output<typeof SystemShape>;

const BodyShape = z.looseObject({ id: optText, name: optText, shortName: optText, paper: optText });
export type OparlBody = z.output<typeof BodyShape>;

const FileShape = z.looseObject({ accessUrl: optText, downloadUrl: optText, mimeType: optText });

const PaperShape = z.looseObject({
  id: optText,
  name: optText,
  reference: optText,
  date: optText,
  paperType: optText,
  mainFile: z.union([z.string(), FileShape]).nullish(),
  web: optText,
  created: optText,
  modified: optText,
  deleted: z.boolean().nullish(),
});
export type OparlPaper = z.output<typeof PaperShape>;

/** An OParl list page: `data` plus `links.next` while more pages follow. */
export interface OparlList<T> {
  data?: T[];
  links?: { next?: string | null } | null;
}

const listShape = <T extends z.ZodType>(item: T) => z.looseObject({ data: z.array(item), links: z.looseObject({ next: optText }).nullish() });
const BODY_LIST = listShape(BodyShape);
const PAPER_LIST = listShape(PaperShape);

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' && v.trim() !== 'N/A' ? v.trim() : null);
/** Names carry the line breaks of the council system's input (ALLRIS: `…Beschaffung\r\n(eRis: DS V/3966)`). */
const text = (v: unknown): string | null => str(v)?.replace(/\s+/g, ' ') ?? null;
/** A link only when absolute: ALLRIS writes `web` as `N/Avo020.asp?…` when its base URL is not configured. */
const link = (v: unknown): string | null => {
  const s = str(v);
  return s && /^https?:\/\//i.test(s) ? s : null;
};

export function assertSystem(body: unknown): OparlSystemObject {
  return shaped(SystemShape, body, 'OParl System');
}

export function bodyList(body: unknown): OparlList<OparlBody> {
  return shaped(BODY_LIST, body, 'OParl body list');
}

export function paperList(body: unknown): OparlList<OparlPaper> {
  return shaped(PAPER_LIST, body, 'OParl paper list');
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

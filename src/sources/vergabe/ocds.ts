import { toBerlinIso } from '../../core/time.ts';
import type { TenderRecord } from '../../core/records/tenders.ts';

interface OcdsAddress {
  streetAddress?: string;
  locality?: string;
  postalCode?: string;
  region?: string;
  countryName?: string;
}
interface OcdsParty {
  id?: string;
  name?: string;
  address?: OcdsAddress;
  roles?: string[];
}
interface OcdsClassification {
  scheme?: string;
  id?: string;
}
export interface OcdsRelease {
  ocid?: string;
  id?: string;
  date?: string;
  tag?: string[];
  buyer?: { id?: string; name?: string };
  parties?: OcdsParty[];
  tender?: {
    title?: string;
    description?: string;
    mainProcurementCategory?: string;
    procurementMethod?: string;
    procurementMethodDetails?: string;
    value?: { amount?: number; currency?: string };
    tenderPeriod?: { endDate?: string };
    classification?: OcdsClassification;
    items?: { classification?: OcdsClassification; additionalClassifications?: OcdsClassification[] }[];
  };
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
const zoned = (v: unknown): string | null => {
  const s = str(v);
  const t = s ? Date.parse(s) : NaN;
  return Number.isFinite(t) ? toBerlinIso(t) : null;
};

/** Releases of one export member: a release package (`releases`), a record package (`records[].compiledRelease`) or a single release. */
export function releasesOf(body: unknown): OcdsRelease[] {
  if (!body || typeof body !== 'object') return [];
  const b = body as { releases?: unknown; records?: unknown; ocid?: unknown };
  const isObject = (r: unknown): r is OcdsRelease => !!r && typeof r === 'object';
  if (Array.isArray(b.releases)) return b.releases.filter(isObject);
  // A record package carries each procedure's compiled release.
  if (Array.isArray(b.records)) return b.records.map((r) => (r as { compiledRelease?: unknown } | null)?.compiledRelease).filter(isObject);
  return typeof b.ocid === 'string' ? [body as OcdsRelease] : [];
}

function cpvCodes(t: NonNullable<OcdsRelease['tender']>): string[] {
  const all = [t.classification, ...(t.items ?? []).flatMap((i) => [i?.classification, ...(i?.additionalClassifications ?? [])])];
  const codes = all.filter((c) => c && (c.scheme ?? 'CPV').toUpperCase() === 'CPV').map((c) => (c?.id ?? '').replace(/\D/g, '').slice(0, 8));
  return [...new Set(codes.filter((c) => c.length === 8))];
}

/** One compact tender record; the buyer is the party the release names as buyer (or with the buyer role). */
export function tenderOf(r: OcdsRelease): TenderRecord | null {
  const id = str(r.id) ?? str(r.ocid);
  if (!id) return null;
  const t = r.tender ?? {};
  const buyer = r.parties?.find((p) => (r.buyer?.id && p?.id === r.buyer.id) || p?.roles?.includes('buyer'));
  const a = buyer?.address ?? {};
  const description = str(t.description);
  return {
    ocid: str(r.ocid),
    notice_id: id,
    title: str(t.title),
    description: description && description.length > 500 ? description.slice(0, 499) + '…' : description,
    buyer_name: str(r.buyer?.name) ?? str(buyer?.name),
    street: str(a.streetAddress),
    post_code: /\b(\d{5})\b/.exec(str(a.postalCode) ?? '')?.[1] ?? null,
    place: str(a.locality),
    nuts: str(a.region),
    cpv: cpvCodes(t),
    main_category: str(t.mainProcurementCategory),
    procedure: str(t.procurementMethodDetails) ?? str(t.procurementMethod),
    published: zoned(r.date),
    deadline: zoned(t.tenderPeriod?.endDate),
    value_eur: t.value?.currency === 'EUR' && typeof t.value.amount === 'number' ? t.value.amount : null,
    tags: Array.isArray(r.tag) ? r.tag.filter((x): x is string => typeof x === 'string') : [],
  };
}

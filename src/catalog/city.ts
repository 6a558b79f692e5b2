import { dataType, type DataType } from '../core/data-type.ts';
import { BaseRecord } from '../core/records/city.ts';
import { WIKIDATA } from '../sources/wikidata/source.ts';
import { cityBase } from '../sources/wikidata/adapters.ts';
import { GEO_PRECOMPUTE_JOB } from '../jobs/geo-precompute.ts';
import { CouncilPapersRecord, GeoRecord, HeritageRecord, HolidaysRecord } from '../core/records/city-base.ts';
import { WIKIDATA_SPARQL } from '../sources/wikidata-sparql/source.ts';
import { heritage } from '../sources/wikidata-sparql/adapters.ts';
import { HERITAGE_LIMIT } from '../sources/wikidata-sparql/heritage.ts';
import { BKG_VG250 } from '../sources/bkg/source.ts';
import { cityBoundary } from '../sources/bkg/adapters.ts';
import { NAGER_DATE, OPENHOLIDAYS } from '../sources/openholidays/source.ts';
import { holidays, nagerHolidays } from '../sources/openholidays/adapters.ts';
import { CITIES } from '../cities/register.ts';
import { PARTIAL_STATE_HOLIDAYS, localSubdivisionsOf, partialStateHolidaysOf } from '../cities/local-holidays.ts';
import { OPARL } from '../sources/oparl/source.ts';
import { OPARL_SYSTEMS } from '../sources/oparl/systems.ts';
import { MAX_PAGES, MAX_PAPERS, RECENT_DAYS, councilPapers } from '../sources/oparl/adapters.ts';

const localNote = CITIES.flatMap((c) => localSubdivisionsOf(c).map((s) => `${c.slug} (${s.code})`)).join(', ');
const partialCities = CITIES.filter((c) => partialStateHolidaysOf(c).some((v) => v.applies))
  .map((c) => c.slug)
  .join(', ');
const partialNote = PARTIAL_STATE_HOLIDAYS.map((h) => `${h.name} in ${h.areas.map((a) => a.name).join(', ')} (DE-${h.state})`).join('; ');

/** City and base data: declarations only (adapters live in their source modules). */
export const CITY_TYPES: DataType[] = [
  dataType({
    type: 'base',
    label: 'Basisdaten',
    label_en: 'Base data',
    group: 'city',
    summary: 'Population, area and coordinates of the city from Wikidata',
    description:
      'Read from the Wikidata item of the register (meta.qid). population is the newest P1082 statement by its point in time (P585), ' +
      'deprecated statements excluded, with that date as population_date; area_km2 is P2046 when its unit is km² (hectares and m² are ' +
      'converted, other units dropped); lat/lon are P625. A 429 from Wikidata is honoured: no call is made before its Retry-After has passed, ' +
      'and a cached answer is served meanwhile (meta.retry_after).',
    record: BaseRecord,
    cache: { freshSeconds: 86400, staleSeconds: 604800 },
    example: { city: 'braunschweig' },
    sources: [{ role: 'primary', source: WIKIDATA, adapter: cityBase }],
  }),
  dataType({
    type: 'holidays',
    label: 'Feiertage und Ferien',
    label_en: 'Public and school holidays',
    group: 'city',
    summary: 'Public holidays that apply in the city and school holidays of its state, current and next year',
    description:
      "From the OpenHolidays API for the city's state (subdivision DE-XX), 1 January of the current year to 31 December of the next. " +
      'Public holidays are those valid nationwide or in the state, plus local holidays of the part of the state the city lies in where ' +
      `OpenHolidays knows one: ${localNote}. Holidays a state grants only in some of its municipalities that OpenHolidays does not list ` +
      `(${partialNote}) are added, dated from Easter, for a city that lies where they apply (${partialCities || "none of the register's cities"}). ` +
      'meta.local names the local subdivision applied (or says none applies) and, per such holiday of the state, whether it applies and why. ' +
      "Regional holidays that apply only in some municipalities of a state (e.g. Mariä Himmelfahrt in Bavaria's predominantly Catholic " +
      "municipalities) are listed with the source's remark in `note`. Dates are calendar days (YYYY-MM-DD). " +
      'While OpenHolidays fails and nothing is cached, the public holidays come from Nager.Date (MIT; no school or local holidays): data.source and meta.answered_by say which answered.',
    record: HolidaysRecord,
    cache: { freshSeconds: 86400, staleSeconds: 7 * 86400 },
    example: { city: 'augsburg' },
    sources: [
      { role: 'primary', source: OPENHOLIDAYS, adapter: holidays },
      {
        role: 'failover',
        source: NAGER_DATE,
        adapter: nagerHolidays,
        note: 'OpenHolidays failed: public holidays from Nager.Date only, no school holidays and no holidays of subdivisions below the state',
      },
    ],
  }),
  dataType({
    type: 'council-papers',
    label: 'Ratsdokumente',
    label_en: 'Council papers',
    group: 'city',
    summary: "Recent papers (motions, proposals, enquiries) from the city council's information system via OParl",
    description:
      `The city's OParl system: System -> Body -> paper list, asked for papers changed in the last ${RECENT_DAYS} days (modified_since; ` +
      `systems that ignore it list older ones too), at most ${MAX_PAGES} pages and ${MAX_PAPERS} papers, newest first, deleted papers left out. ` +
      'Each paper links its main document (usually a PDF) in the system; documents are never mirrored. Only cities whose council ' +
      'information system carries an open licence are served (data.license: as the system states it, else as the city grants it); the ' +
      'other OParl systems state no licence or reserve rights, so those cities answer not_covered.',
    record: CouncilPapersRecord,
    list: 'papers',
    cache: { freshSeconds: 3600, staleSeconds: 86400 },
    coverage: {
      cities: OPARL_SYSTEMS.map((s) => s.slug),
      note: "Council papers are served only where the city's OParl system carries an open licence (dl-de/zero, dl-de/by or CC BY); most systems state none.",
    },
    example: { city: 'leipzig' },
    sources: [{ role: 'primary', source: OPARL, adapter: councilPapers }],
  }),
  dataType({
    type: 'geo',
    label: 'Stadtgebiet',
    label_en: 'City boundary',
    group: 'city',
    summary: "The city's official boundary as GeoJSON (simplified polygon, bounding box, centroid, area) from BKG VG250",
    description:
      'The municipality polygon of the BKG administrative boundaries VG250 (layer VG250_GEM, land parts), matched by AGS, converted from ' +
      'ETRS89 / UTM 32N to WGS 84 and stored by a job that reads the archive once a month (it is published yearly). The default geometry ' +
      'is simplified (Douglas-Peucker, meta and data name the tolerance); `detail=full` returns the unsimplified polygon. The area is ' +
      "computed from the full polygon with the projection's scale corrected. Before the first precompute the answer is no_data.",
    params: [
      {
        name: 'detail',
        type: 'string',
        enum: ['simplified', 'full'],
        default: 'simplified',
        description: 'simplified (default) or full: the unsimplified VG250 polygon',
      },
    ],
    record: GeoRecord,
    cache: 'stored',
    example: { city: 'muenchen' },
    sources: [{ role: 'primary', source: BKG_VG250, adapter: cityBoundary, jobs: [GEO_PRECOMPUTE_JOB] }],
  }),
  dataType({
    type: 'heritage',
    label: 'Denkmäler',
    label_en: 'Listed monuments',
    group: 'city',
    summary: 'Listed monuments in the city from Wikidata: heritage designation, coordinates, image and article link',
    description:
      'One SPARQL query per city (cached for a day) for Wikidata items with a heritage designation (P1435) located, directly or ' +
      "through districts, in the city's item (P131) and with coordinates (P625); image (P18), street address (P6375) and the German " +
      `Wikipedia article where they exist. At most ${HERITAGE_LIMIT} rows. Coverage is uneven: Wikidata holds most monuments of ` +
      'some states and few of others, so the list is not the official monument register.',
    record: HeritageRecord,
    list: true,
    cache: { freshSeconds: 86400, staleSeconds: 7 * 86400 },
    example: { city: 'muenchen' },
    sources: [{ role: 'primary', source: WIKIDATA_SPARQL, adapter: heritage }],
  }),
];

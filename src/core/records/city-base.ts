import { bool, date, lat, list, lon, record, text, time, z, lazy, type Infer } from '../schema.ts';

const holiday = lazy(() =>
  record({
    id: text('OpenHolidays id of the holiday (UUID)'),
    name: text('Name, German'),
    start: date('First day'),
    end: date('Last day (equal to start for a single day)'),
    scope: z
      .enum(['national', 'regional', 'local'])
      .nullable()
      .meta({ description: 'Where it applies: nationwide, in the whole state (or several), or only in a part of it' }),
    nationwide: bool('Whether it applies in all of Germany'),
    half_day: bool('Whether only part of the day is free (OpenHolidays temporalScope HalfDay)'),
    subdivisions: z.array(z.string()).meta({ description: 'OpenHolidays subdivision codes it applies to, e.g. DE-BY or DE-BY-AU (empty when nationwide)' }),
    note: text('Remark of the source, German (e.g. where exactly a regional holiday applies)'),
  }),
);

export const HolidaysRecord = lazy(() =>
  record({
    subdivision_code: text("OpenHolidays code of the city's state, e.g. DE-BY"),
    local_subdivision_codes: z
      .array(z.string())
      .meta({ description: 'Codes of parts of the state the city lies in whose local holidays are included (e.g. DE-BY-AU for Augsburg)' }),
    valid_from: date('First day covered (1 January of the current year)'),
    valid_to: date('Last day covered (31 December of the next year)'),
    source: z
      .enum(['openholidays', 'nager-date'])
      .meta({ description: 'Where the lists come from: OpenHolidays, or Nager.Date (public holidays only) when OpenHolidays failed' }),
    public_holidays: list(holiday(), 'Public holidays that apply in the city, by date'),
    school_holidays: list(holiday(), "School holidays of the city's state, by date"),
  }),
);
export type HolidaysRecord = Infer<typeof HolidaysRecord>;
export type Holiday = HolidaysRecord['public_holidays'][number];

const paper = lazy(() =>
  record({
    id: text('OParl id of the paper (its URL in the council information system)'),
    name: text('Title of the paper'),
    reference: text('Reference number (Drucksachennummer)'),
    date: date('Date of the paper'),
    paper_type: text('Kind of paper as the system names it, e.g. Beschlussvorlage, Antrag, Anfrage'),
    main_file_url: text('Download (or access) URL of the main document, usually a PDF; linked, never mirrored'),
    main_file_mime_type: text('Media type of the main document'),
    web_url: text("The paper's page in the council information system"),
    modified: time('Last change in the system'),
  }),
);

export const CouncilPapersRecord = lazy(() =>
  record({
    system_name: text('Name of the council information system (OParl System.name)'),
    body_name: text('The body (municipality) the papers belong to'),
    license: text('Licence of the papers: as the OParl system states it, else as the city grants it'),
    license_stated_by: z.enum(['system', 'city']).meta({ description: 'Whether the licence comes from the OParl System object or from the city' }),
    requested_since: time('modified_since sent to the system (papers changed since); systems that ignore it list older papers too'),
    papers: list(paper(), 'Recent papers, newest first'),
  }),
);
export type CouncilPapersRecord = Infer<typeof CouncilPapersRecord>;
export type CouncilPaper = CouncilPapersRecord['papers'][number];

export const GeoRecord = lazy(() =>
  record({
    ags: text('Official municipality key (AGS) of the boundary'),
    name: text('Name as VG250 gives it (GEN)'),
    designation: text('Kind of municipality (BEZ), e.g. Kreisfreie Stadt, Stadt'),
    area_km2: z.number().nullable().meta({ description: 'Land area within the boundary (VG250 land parts, GF 4)', unit: 'km²' }),
    centroid: record({ lat: lat(), lon: lon() }, 'Area centroid (may lie outside a strongly concave boundary)'),
    bbox: record({ min_lon: lon(), min_lat: lat(), max_lon: lon(), max_lat: lat() }, 'Bounding box of the boundary (WGS 84)'),
    detail: z.enum(['simplified', 'full']).meta({ description: 'Which geometry `geometry` holds' }),
    simplify_tolerance_m: z.number().nullable().meta({ description: 'Douglas-Peucker tolerance of the simplified geometry (null for full)', unit: 'm' }),
    points: z.number().int().meta({ description: 'Number of coordinate pairs in geometry' }),
    effective_since: date('Date the boundary took legal effect (VG250 WSK)'),
    geometry: z
      .strictObject({
        type: z.literal('MultiPolygon'),
        coordinates: z.array(z.array(z.array(z.array(z.number())))),
      })
      .meta({ description: 'GeoJSON MultiPolygon (RFC 7946: [lon, lat], WGS 84, outer rings counter-clockwise)' }),
  }),
);
export type GeoRecord = Infer<typeof GeoRecord>;

export const HeritageRecord = lazy(() =>
  record({
    wikidata_id: z.string().meta({ description: 'Wikidata item id, e.g. Q167193' }),
    name: text('Label, German (English when there is none)'),
    designations: z.array(z.string()).meta({ description: 'Heritage designations (P1435), e.g. Baudenkmal in Bayern' }),
    lat: lat(),
    lon: lon(),
    street_address: text('Street address as Wikidata states it (P6375)'),
    image_url: text('Image on Wikimedia Commons (Special:FilePath URL; licence per file)'),
    article_url: text('German Wikipedia article'),
    wikidata_url: z.string().meta({ description: 'The item on wikidata.org' }),
  }),
);
export type HeritageRecord = Infer<typeof HeritageRecord>;

import { bool, int, lat, list, lon, num, oneOf, postCode, record, text, time, z, lazy, type Infer } from '../schema.ts';

/** One object mapped in OpenStreetMap (a node, or a way/relation by its centre). */
/** The members every object read from OpenStreetMap carries: its name, position, address and opening hours. */
const osmLocated = () => ({
  name: text('Name (OSM name tag)'),
  lat: lat(),
  lon: lon(),
  street: text('Street (addr:street)'),
  house_number: text('House number (addr:housenumber)'),
  post_code: postCode(),
  place: text('Town of the address (addr:city)'),
  opening_hours: text('Opening hours in OSM opening_hours syntax, e.g. "Mo-Fr 08:00-18:00"'),
});

export const PlaceRecord = lazy(() =>
  record({
    ...osmLocated(),
    operator: text('Operator (OSM operator tag)'),
    brand: text('Brand, e.g. DHL Packstation (OSM brand tag)'),
    fee: bool('Whether use costs a fee (OSM fee=yes/no; null when not mapped or given as a price)'),
    wheelchair: oneOf(['yes', 'limited', 'no', 'designated'], 'Wheelchair access as mapped (OSM wheelchair tag)'),
    capacity: int('Capacity as mapped (OSM capacity tag), e.g. compartments or seats'),
    collection_times: text('Post box collection times in opening_hours syntax (OSM collection_times)'),
    recycling_materials: z
      .array(z.string())
      .nullable()
      .meta({ description: 'Materials accepted at a recycling centre (OSM recycling:<material>=yes), e.g. glass, paper' }),
    website: text('Website (OSM website or contact:website tag)'),
    osm_type: oneOf(['node', 'way', 'relation'], 'OSM object type'),
    osm_id: int('OSM object id (with osm_type, the object at openstreetmap.org/<osm_type>/<osm_id>)'),
  }),
);
export type PlaceRecord = Infer<typeof PlaceRecord>;

/** One event from a tourism board's open event database. */
export const EventRecord = lazy(() =>
  record({
    id: text('Id in the source (destination.one global id)'),
    title: text('Title'),
    categories: z.array(z.string()).meta({ description: 'Categories as the source names them' }),
    start: time('Start of the next date (zoned)'),
    end: time('End of the next date (zoned)'),
    upcoming_dates: int('How many of the listed dates are still ahead'),
    description: text('Teaser or description, plain text'),
    venue: text('Venue name'),
    street: text('Street and house number of the venue'),
    post_code: postCode(),
    place: text('Town of the venue'),
    lat: lat(),
    lon: lon(),
    url: text('Web page of the event or venue'),
    image_url: text('Main image'),
    organizer: text('Organiser'),
    license: text('Licence of this record as the source states it (CC0, CC-BY, CC-BY-SA); null when not stated'),
  }),
);
export type EventRecord = Infer<typeof EventRecord>;

const office = lazy(() =>
  record({
    name: text('Office as the city names it'),
    status: oneOf(['open', 'closed'], 'Whether the office is open now'),
    wait_minutes: int('Current waiting time', 'min'),
    note: text('Notice of the office (e.g. closures), German'),
    url: text("The office's page"),
    updated_at: time('When the city last updated this value'),
  }),
);

export const OfficeWaitTimesRecord = lazy(() =>
  record({
    as_of: time('Newest update of the feed'),
    stale: bool('True when the feed has not been updated for a day (the values are then not current)'),
    offices: list(office(), 'Citizen service centres and the vehicle registration office'),
  }),
);
export type OfficeWaitTimesRecord = Infer<typeof OfficeWaitTimesRecord>;

const tree = lazy(() =>
  record({
    id: text('Feature id in the WFS'),
    species_de: text('Species, German'),
    species_botanical: text('Species, botanical name'),
    genus_de: text('Genus, German'),
    planting_year: int('Year of planting'),
    height_m: num('Height', 'm'),
    crown_diameter_m: num('Crown diameter', 'm'),
    street: text('Street'),
    district: text('District as the city names it'),
    lat: lat(),
    lon: lon(),
  }),
);

export const TreeCadastreRecord = lazy(() =>
  record({
    total: int("All trees in the city's cadastre (WFS numberMatched); null when the service does not say"),
    start_index: int('Position of the first tree of this sample in the cadastre (WFS startIndex)'),
    sample_size: int('Trees in this sample'),
    license: text('Licence the city grants'),
    attribution: text('Credit the city asks for'),
    trees: list(tree(), 'A page of the cadastre in the order of the service'),
  }),
);
export type TreeCadastreRecord = Infer<typeof TreeCadastreRecord>;
export type TreeRecord = TreeCadastreRecord['trees'][number];

const poi = lazy(() =>
  record({
    ...osmLocated(),
    osm_type: oneOf(['node', 'way', 'relation'], 'OSM element type (ways and relations are placed at their centre)'),
    osm_id: z.number().int().meta({ description: 'OSM element id' }),
  }),
);

export const PoisRecord = lazy(() =>
  record({
    type: z.string().meta({ description: 'The POI type asked for' }),
    total_available: z.number().int().meta({ description: 'All objects of the type mapped within the city boundary (the true total)' }),
    sample_size: z.number().int().meta({ description: 'Objects in the stored sample' }),
    truncated: z.boolean().meta({ description: 'The sample holds fewer objects than total_available' }),
    items: list(poi(), 'The sample, sorted by name (pages with limit/offset)'),
  }),
);
export type PoisRecord = Infer<typeof PoisRecord>;

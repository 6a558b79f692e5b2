import { lat, list, lon, oneOf, postCode, record, text, z } from '../schema.ts';

const poi = record({
  name: text('Name (OSM name tag)'),
  lat: lat(),
  lon: lon(),
  street: text('Street (addr:street)'),
  house_number: text('House number (addr:housenumber)'),
  post_code: postCode(),
  place: text('Place (addr:city)'),
  opening_hours: text('Opening hours in the OSM opening_hours syntax'),
  osm_type: oneOf(['node', 'way', 'relation'], 'OSM element type (ways and relations are placed at their centre)'),
  osm_id: z.number().int().meta({ description: 'OSM element id' }),
});

export const PoisRecord = record({
  type: z.string().meta({ description: 'The POI type asked for' }),
  total_available: z.number().int().meta({ description: 'All objects of the type mapped within the city boundary (the true total)' }),
  sample_size: z.number().int().meta({ description: 'Objects in the stored sample' }),
  truncated: z.boolean().meta({ description: 'The sample holds fewer objects than total_available' }),
  items: list(poi, 'The sample, sorted by name (pages with limit/offset)'),
});
export type PoisRecord = z.infer<typeof PoisRecord>;

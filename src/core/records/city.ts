import { int, lat, lon, num, record, text, time, z, lazy, type Infer } from '../schema.ts';

export const BaseRecord = lazy(() =>
  record({
    qid: z.string().meta({ description: 'Wikidata item id of the city, e.g. Q2773' }),
    name: text('German label of the Wikidata item'),
    population: int('Newest population statement (P1082) by its point in time, deprecated statements excluded'),
    population_date: text('Point in time of that statement (P585), as precise as Wikidata states it: YYYY, YYYY-MM or YYYY-MM-DD'),
    area_km2: num('Area (P2046), converted to km² from hectares or m²; other units are dropped', 'km²'),
    lat: lat(),
    lon: lon(),
    entity_modified_at: time('When the Wikidata item was last edited'),
    wikidata_url: z.string().meta({ description: 'Page of the Wikidata item' }),
  }),
);
export type BaseRecord = Infer<typeof BaseRecord>;

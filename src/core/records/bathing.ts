import { lat, lon, num, oneOf, record, text, lazy, type Infer } from '../schema.ts';

export const BathingWaterRecord = lazy(() =>
  record({
    id: text('EU bathing water identifier, e.g. DEBE_PR_0003'),
    name: text('Name of the bathing site'),
    water_category: text('Lake, River, Coastal or Transitional'),
    quality: oneOf(['Excellent', 'Good', 'Sufficient', 'Poor', 'Not classified'], 'Classification of the season under Directive 2006/7/EC'),
    quality_de: text('Classification, German (ausgezeichnet, gut, ausreichend, mangelhaft, nicht eingestuft)'),
    quality_raw: text('Classification as the EEA writes it'),
    profile_url: text('Bathing water profile of the competent authority'),
    lat: lat(),
    lon: lon(),
    distance_km: num('Distance of the site from the city point', 'km'),
  }),
);
export type BathingWaterRecord = Infer<typeof BathingWaterRecord>;

import { int, lat, lon, num, postCode, record, text, lazy, type Infer } from '../schema.ts';

export const HospitalRecord = lazy(() =>
  record({
    name: text('Hospital (site) name'),
    street: text('Street and house number as the atlas writes them'),
    post_code: postCode(),
    place: text('Place'),
    phone: text('Phone number'),
    email: text('E-mail address'),
    beds: int('Number of beds'),
    lat: lat(),
    lon: lon(),
    url: text('Page of the site in the Bundes-Klinik-Atlas'),
    distance_km: num('Distance from the city point', 'km'),
  }),
);
export type HospitalRecord = Infer<typeof HospitalRecord>;

import type { OfficialTable } from '../sources/genesis/official.ts';
import { byLabel } from './statistics-type.ts';

/*
 * Regionaldatenbank tables read as the `official` part of types whose main source is another
 * (education and health: OSM counts; social-situation: BA). Value variables are matched by the
 * German wording of the table titles; every record also carries table_values (see
 * test/fixtures/genesis/README.md for which codes are assumed).
 */

const SCHOOLS = byLabel(/^(Allgemeinbildende )?Schulen/i);
const PUPILS = byLabel(/^Schüler/i);
const LEAVERS = byLabel(/^(Absolvent|Abgänger)/i);

/** 21111-01-03-4: general schools and pupils by school type (also the education-stats type). */
export const SCHOOLS_TABLE: OfficialTable = {
  table: '21111-01-03-4',
  fields: [
    { field: 'schools', value: SCHOOLS, description: 'General schools' },
    { field: 'pupils', value: PUPILS, description: 'Pupils of general schools' },
  ],
  breakdown: {
    key: 'by_school_type',
    description: 'Schools and pupils per school type',
    variable: byLabel(/Schulart/i),
    fields: [
      { field: 'schools', value: SCHOOLS, description: 'Schools of this type' },
      { field: 'pupils', value: PUPILS, description: 'Pupils of this school type' },
    ],
  },
};

/** 21111-02-06-4: leavers of general schools by qualification. */
export const SCHOOL_LEAVERS_TABLE: OfficialTable = {
  table: '21111-02-06-4',
  fields: [{ field: 'leavers', value: LEAVERS, description: 'Graduates and leavers of general schools in the school year' }],
  breakdown: {
    key: 'by_qualification',
    description: 'Graduates and leavers per qualification (Abschlussart)',
    variable: byLabel(/Abschl/i),
    fields: [{ field: 'leavers', value: LEAVERS, description: 'Graduates and leavers with this qualification' }],
  },
};

/** 23111-01-05-4: hospitals, beds and patients. */
export const HOSPITALS_TABLE: OfficialTable = {
  table: '23111-01-05-4',
  fields: [
    { field: 'hospitals', value: byLabel(/^Krankenhäuser/i), description: 'Hospitals' },
    { field: 'beds', value: byLabel(/Betten/i), description: 'Beds set up (aufgestellte Betten)' },
    { field: 'patients', value: byLabel(/^(Patient|Fallzahl)/i), description: 'Patients treated as in-patients in the year' },
  ],
  rates: [
    {
      field: 'beds_per_10k_inhabitants',
      of: 'beds',
      per: 10_000,
      description: 'Beds per 10,000 inhabitants (population of the city register)',
      unit: 'per 10,000',
    },
  ],
};

/** 22311-01-02-4: households receiving housing benefit (Wohngeld) on 31 December. */
export const HOUSING_BENEFIT_TABLE: OfficialTable = {
  table: '22311-01-02-4',
  fields: [{ field: 'households', value: byLabel(/Haushalte/i), description: 'Households receiving housing benefit' }],
  rates: [
    {
      field: 'households_per_1000_inhabitants',
      of: 'households',
      per: 1000,
      description: 'Housing benefit households per 1,000 inhabitants (population of the city register)',
      unit: 'per 1,000',
    },
  ],
  breakdown: {
    key: 'by_entitlement',
    description: 'Households per kind of entitlement (Art des Wohngeldanspruchs)',
    variable: byLabel(/Wohngeld/i),
    fields: [{ field: 'households', value: byLabel(/Haushalte/i), description: 'Households with this kind of entitlement' }],
  },
};

/** 22221-01-01-4: recipients of subsistence aid and basic income in old age (SGB XII, chapters 3 and 4). */
export const SOCIAL_ASSISTANCE_TABLE: OfficialTable = {
  table: '22221-01-01-4',
  fields: [{ field: 'recipients', value: byLabel(/^Empfänger/i), description: 'Recipients of benefits under SGB XII chapters 3 and 4' }],
  rates: [
    {
      field: 'recipients_per_1000_inhabitants',
      of: 'recipients',
      per: 1000,
      description: 'Recipients per 1,000 inhabitants (population of the city register)',
      unit: 'per 1,000',
    },
  ],
  breakdown: {
    key: 'by_benefit',
    description: 'Recipients per kind of benefit (Leistungsart)',
    variable: byLabel(/Leistung/i),
    fields: [{ field: 'recipients', value: byLabel(/^Empfänger/i), description: 'Recipients of this kind of benefit' }],
  },
};

export const EDUCATION_OFFICIAL = { schools: SCHOOLS_TABLE, school_leavers: SCHOOL_LEAVERS_TABLE } as const;
export const HEALTH_OFFICIAL = { hospitals: HOSPITALS_TABLE } as const;
export const SOCIAL_OFFICIAL = { housing_benefit: HOUSING_BENEFIT_TABLE, social_assistance: SOCIAL_ASSISTANCE_TABLE } as const;

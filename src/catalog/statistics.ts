import type { DataType } from '../core/data-type.ts';
import { ratio, statisticsType, type StatDecl } from '../sources/genesis/statistics-type.ts';
import type { FieldDecl } from '../sources/genesis/select.ts';

/*
 * Official statistics from the Regionaldatenbank Deutschland. Codes seen in recorded answers
 * (BEVSTD, GES/GESM/GESW, ERW032, NAT/NATA, ISV006, ISVAT3/ISVART01/02, ISVNW1, FOR002) are
 * matched by code; the other tables by the German wording of their value variables, which the
 * table titles document (see test/fixtures/genesis/README.md).
 */

const byCode = (...codes: string[]) => ({ codes });
const byLabel = (label: RegExp) => ({ label });
const bySex = (field: string, value: FieldDecl['value']): FieldDecl[] => [
  { field, value },
  { field: `${field}_male`, value, where: { GES: 'GESM' } },
  { field: `${field}_female`, value, where: { GES: 'GESW' } },
];

const population = byCode('BEVSTD');

const DECLS: StatDecl[] = [
  {
    type: 'demographics',
    label: 'Bevölkerung',
    label_en: 'Population',
    group: 'society',
    summary: 'Population of the municipality by sex on the latest 31 December (official update of the census)',
    table: '12411-01-01-5',
    fields: bySex('population', population),
    derive: (v) => ({ female_share_pct: ratio(v.population_female, v.population, 100) }),
    compare: { resource: 'demographics' },
  },
  {
    type: 'population-structure',
    label: 'Altersstruktur',
    label_en: 'Population by age group',
    group: 'society',
    summary: 'Population of the municipality in 17 age groups by sex on the latest 31 December',
    table: '12411-02-03-5',
    fields: [{ field: 'population', value: population }],
    breakdown: {
      key: 'age_groups',
      variable: { codes: ['ALTX17'], label: /Altersgruppe/i },
      fields: bySex('population', population),
    },
  },
  {
    type: 'population-trend',
    label: 'Bevölkerungsentwicklung',
    label_en: 'Population trend',
    group: 'society',
    summary: 'Population of the municipality on the last eleven 31 Decembers, with the change over the series',
    description:
      'Regionaldatenbank Deutschland table 12411-01-01-5. From 31.12.2022 on the update is based on the 2022 census, so the series has a break there (about -6 % in Köln).',
    table: '12411-01-01-5',
    mode: 'series',
    periods: 11,
    fields: [{ field: 'population', value: population }],
  },
  {
    type: 'tourism',
    label: 'Tourismus',
    label_en: 'Tourism',
    group: 'economy',
    summary: 'Accommodation establishments, sleeping places, guest arrivals and overnight stays per year (municipality)',
    table: '45412-01-03-5',
    fields: [
      { field: 'arrivals', value: byLabel(/^Gästeankünfte/i) },
      { field: 'overnight_stays', value: byLabel(/^Gästeübernachtungen/i) },
      { field: 'establishments', value: byLabel(/Beherbergungsbetriebe/i) },
      { field: 'sleeping_places', value: byLabel(/Schlafgelegenheiten/i) },
    ],
    derive: (v) => ({ average_stay_nights: ratio(v.overnight_stays, v.arrivals) }),
    compare: { resource: 'tourism' },
  },
  {
    type: 'labour-market',
    label: 'Beschäftigung',
    label_en: 'Employment',
    group: 'economy',
    summary: 'Employees subject to social insurance working in the municipality (30 June), by sex and nationality',
    table: '13111-01-03-5',
    fields: [...bySex('employees', byCode('ERW032')), { field: 'employees_foreign', value: byCode('ERW032'), where: { NAT: 'NATA' } }],
    derive: (v) => ({ foreign_share_pct: ratio(v.employees_foreign, v.employees, 100), female_share_pct: ratio(v.employees_female, v.employees, 100) }),
  },
  {
    type: 'business-registrations',
    label: 'Gewerbeanzeigen',
    label_en: 'Business registrations',
    group: 'economy',
    summary: 'Business registrations and deregistrations per year (district-free cities)',
    table: '52311-01-04-4',
    fields: [
      { field: 'registrations', value: byLabel(/^Gewerbeanmeldungen/i) },
      { field: 'new_establishments', value: byLabel(/^Neuerrichtungen/i) },
      { field: 'business_foundations', value: byLabel(/^Betriebsgründungen/i) },
      { field: 'deregistrations', value: byLabel(/^Gewerbeabmeldungen/i) },
      { field: 'closures', value: byLabel(/^Aufgaben/i) },
      { field: 'business_closures', value: byLabel(/^Betriebsaufgaben/i) },
    ],
    derive: (v) => ({ net_registrations: v.registrations !== null && v.deregistrations !== null ? v.registrations - v.deregistrations : null }),
  },
  {
    type: 'insolvencies',
    label: 'Insolvenzen',
    label_en: 'Insolvencies',
    group: 'economy',
    summary: 'Company insolvency applications per year, opened or rejected for lack of assets, with employees and claims affected (district-free cities)',
    table: '52411-02-01-4',
    fields: [
      { field: 'company_insolvencies', value: byCode('ISV006') },
      { field: 'proceedings_opened', value: byCode('ISV006'), where: { ISVAT3: 'ISVART01' } },
      { field: 'rejected_lack_of_assets', value: byCode('ISV006'), where: { ISVAT3: 'ISVART02' } },
      { field: 'employees_affected', value: byCode('ISVNW1') },
      { field: 'expected_claims_thousand_eur', value: byCode('FOR002') },
    ],
  },
  {
    type: 'construction',
    label: 'Baugenehmigungen',
    label_en: 'Building permits',
    group: 'economy',
    summary: 'Permits for new residential buildings and their dwellings per year (municipality)',
    table: '31111-01-02-5',
    fields: [
      { field: 'residential_buildings', value: byLabel(/^(Genehmigte )?Wohngebäude/i) },
      { field: 'dwellings', value: byLabel(/^(Genehmigte )?Wohnungen/i) },
      { field: 'living_space_thousand_m2', value: byLabel(/Wohnfläche/i) },
      { field: 'estimated_costs_thousand_eur', value: byLabel(/Kosten/i) },
    ],
  },
  {
    type: 'municipal-finance',
    label: 'Gemeindefinanzen',
    label_en: 'Municipal finance',
    group: 'economy',
    summary: 'Municipal tax revenue per year: trade tax, property tax, shares of income and value-added tax, tax revenue capacity',
    table: '71231-01-03-5',
    fields: [
      { field: 'property_tax_a_thousand_eur', value: byLabel(/^Ist-?aufkommen.*Grundsteuer A/i) },
      { field: 'property_tax_b_thousand_eur', value: byLabel(/^Ist-?aufkommen.*Grundsteuer B/i) },
      { field: 'trade_tax_thousand_eur', value: byLabel(/^Ist-?aufkommen.*Gewerbesteuer/i) },
      { field: 'trade_tax_levy_thousand_eur', value: byLabel(/^Gewerbesteuerumlage/i) },
      { field: 'trade_tax_net_thousand_eur', value: byLabel(/^Gewerbesteuer netto/i) },
      { field: 'income_tax_share_thousand_eur', value: byLabel(/Gemeindeanteil an der Einkommensteuer/i) },
      { field: 'vat_share_thousand_eur', value: byLabel(/Gemeindeanteil an der Umsatzsteuer/i) },
      { field: 'tax_revenue_capacity_thousand_eur', value: byLabel(/^Steuereinnahmekraft/i) },
    ],
  },
  {
    type: 'tax-rates',
    label: 'Hebesätze',
    label_en: 'Local tax rates',
    group: 'economy',
    summary: 'Multipliers (Hebesätze, %) of property tax A and B and trade tax set by the municipality',
    table: '71231-01-03-5',
    fields: [
      { field: 'property_tax_a_rate_pct', value: byLabel(/^Hebesatz.*Grundsteuer A/i) },
      { field: 'property_tax_b_rate_pct', value: byLabel(/^Hebesatz.*Grundsteuer B/i) },
      { field: 'trade_tax_rate_pct', value: byLabel(/^Hebesatz.*Gewerbesteuer/i) },
    ],
  },
  {
    type: 'vehicle-registrations',
    label: 'Kfz-Bestand',
    label_en: 'Registered vehicles',
    group: 'economy',
    summary: 'Registered motor vehicles on 1 January by vehicle type (district-free cities)',
    table: '46251-01-03-4',
    fields: [
      { field: 'vehicles', value: byLabel(/Kraftfahrzeugbestand|Bestand an Kraftfahrzeugen/i) },
      { field: 'passenger_cars', value: byLabel(/Kraftfahrzeugbestand|Bestand an Kraftfahrzeugen/i), attribute: byLabel(/^Personenkraftwagen/i) },
    ],
    breakdown: {
      key: 'by_vehicle_type',
      variable: byLabel(/Kraftfahrzeugart/i),
      fields: [{ field: 'vehicles', value: byLabel(/Kraftfahrzeugbestand|Bestand an Kraftfahrzeugen/i) }],
    },
  },
  {
    type: 'care',
    label: 'Pflege',
    label_en: 'Long-term care',
    group: 'society',
    summary: 'People in need of long-term care by type of benefit and sex, 31 December (district-free cities)',
    table: '22411-02-05-4',
    fields: bySex('care_recipients', byLabel(/^Pflegebedürftige/i)),
    breakdown: {
      key: 'by_benefit_type',
      variable: byLabel(/Leistungsart/i),
      fields: [{ field: 'care_recipients', value: byLabel(/^Pflegebedürftige/i) }],
    },
  },
  {
    type: 'childcare',
    label: 'Kinderbetreuung',
    label_en: 'Childcare',
    group: 'society',
    summary: 'Children under three in day care and the care rate, 1 March (district-free cities)',
    table: '22543-03-01-4',
    fields: [
      { field: 'children_under_3_in_care', value: byLabel(/^Betreute Kinder/i) },
      { field: 'care_rate_under_3_pct', value: byLabel(/Betreuungsquote/i) },
    ],
    breakdown: {
      key: 'by_care_type',
      variable: byLabel(/Kindertagesbetreuung/i),
      fields: [
        { field: 'children_under_3_in_care', value: byLabel(/^Betreute Kinder/i) },
        { field: 'care_rate_under_3_pct', value: byLabel(/Betreuungsquote/i) },
      ],
    },
  },
  {
    type: 'integration',
    label: 'Einbürgerungen',
    label_en: 'Naturalisations',
    group: 'society',
    summary: 'Naturalisations per year with naturalisation rate and potential, by previous nationality (district-free cities)',
    table: '12511-04-01-4',
    fields: [
      { field: 'naturalisations', value: byLabel(/^(Einbürgerungen|Eingebürgerte)/i) },
      { field: 'naturalisation_rate_pct', value: byLabel(/^Einbürgerungsquote/i) },
      { field: 'naturalisation_potential', value: byLabel(/^Einbürgerungspotential/i) },
    ],
    breakdown: {
      key: 'by_nationality',
      variable: byLabel(/Staatsangehörigkeit/i),
      fields: [{ field: 'naturalisations', value: byLabel(/^(Einbürgerungen|Eingebürgerte)/i) }],
    },
  },
  {
    type: 'education-stats',
    label: 'Schulstatistik',
    label_en: 'School statistics',
    group: 'society',
    summary: 'General schools and their pupils by school type at the start of the school year (district-free cities)',
    table: '21111-01-03-4',
    fields: [
      { field: 'schools', value: byLabel(/^(Allgemeinbildende )?Schulen/i) },
      { field: 'pupils', value: byLabel(/^Schüler/i) },
    ],
    breakdown: {
      key: 'by_school_type',
      variable: byLabel(/Schulart/i),
      fields: [
        { field: 'schools', value: byLabel(/^(Allgemeinbildende )?Schulen/i) },
        { field: 'pupils', value: byLabel(/^Schüler/i) },
      ],
    },
  },
];

export const STATISTICS_TYPES: DataType[] = DECLS.map(statisticsType);

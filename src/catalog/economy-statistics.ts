import type { DataType } from '../core/data-type.ts';
import { ratio } from '../sources/genesis/adapters.ts';
import { byCode, byLabel, bySex, statisticsType } from './statistics-type.ts';

const VEHICLES = byLabel(/Kraftfahrzeugbestand|Bestand an Kraftfahrzeugen/i);
const EMPLOYEES = byCode('ERW032');

/** Economy and finance (official statistics): declarations only, read by the generic GENESIS adapter. */
export const ECONOMY_TYPES: DataType[] = [
  statisticsType({
    type: 'tourism',
    label: 'Tourismus',
    label_en: 'Tourism',
    group: 'economy',
    summary: 'Accommodation establishments, sleeping places, guest arrivals and overnight stays per year (municipality)',
    table: '45412-01-03-5',
    fields: [
      { field: 'arrivals', value: byLabel(/^Gästeankünfte/i), description: 'Guest arrivals in the year' },
      { field: 'overnight_stays', value: byLabel(/^Gästeübernachtungen/i), description: 'Overnight stays of guests in the year' },
      { field: 'establishments', value: byLabel(/Beherbergungsbetriebe/i), description: 'Accommodation establishments open (July)' },
      { field: 'sleeping_places', value: byLabel(/Schlafgelegenheiten/i), description: 'Sleeping places offered (July)' },
    ],
    derived: [
      { field: 'average_stay_nights', description: 'Overnight stays per arrival', unit: 'nights', compute: (v) => ratio(v.overnight_stays, v.arrivals) },
    ],
    compare: { resource: 'tourism', value: 'overnight_stays' },
    example: { city: 'muenchen' },
  }),
  statisticsType({
    type: 'labour-market',
    label: 'Beschäftigung',
    label_en: 'Employment',
    group: 'economy',
    summary: 'Employees subject to social insurance working in the municipality (30 June), by sex and nationality',
    table: '13111-01-03-5',
    fields: [
      ...bySex('employees', EMPLOYEES, 'Employees subject to social insurance at their place of work'),
      { field: 'employees_foreign', value: EMPLOYEES, where: { NAT: 'NATA' }, description: 'Employees subject to social insurance with a foreign nationality' },
    ],
    derived: [
      { field: 'foreign_share_pct', description: 'Share of foreign employees', unit: '%', compute: (v) => ratio(v.employees_foreign, v.employees, 100) },
      { field: 'female_share_pct', description: 'Share of women among the employees', unit: '%', compute: (v) => ratio(v.employees_female, v.employees, 100) },
    ],
    example: { city: 'koeln' },
  }),
  statisticsType({
    type: 'business-registrations',
    label: 'Gewerbeanzeigen',
    label_en: 'Business registrations',
    group: 'economy',
    summary: 'Business registrations and deregistrations per year (district-free cities)',
    table: '52311-01-04-4',
    fields: [
      { field: 'registrations', value: byLabel(/^Gewerbeanmeldungen/i), description: 'Business registrations (Gewerbeanmeldungen)' },
      { field: 'new_establishments', value: byLabel(/^Neuerrichtungen/i), description: 'Registrations that set up a new business' },
      { field: 'business_foundations', value: byLabel(/^Betriebsgründungen/i), description: 'New businesses of economic substance (Betriebsgründungen)' },
      { field: 'deregistrations', value: byLabel(/^Gewerbeabmeldungen/i), description: 'Business deregistrations (Gewerbeabmeldungen)' },
      { field: 'closures', value: byLabel(/^Aufgaben/i), description: 'Deregistrations that closed a business' },
      { field: 'business_closures', value: byLabel(/^Betriebsaufgaben/i), description: 'Closed businesses of economic substance (Betriebsaufgaben)' },
    ],
    derived: [
      {
        field: 'net_registrations',
        description: 'Registrations minus deregistrations',
        compute: (v) => {
          const { registrations: reg = null, deregistrations: dereg = null } = v;
          return reg !== null && dereg !== null ? reg - dereg : null;
        },
      },
    ],
    example: { city: 'muenchen' },
  }),
  statisticsType({
    type: 'insolvencies',
    label: 'Insolvenzen',
    label_en: 'Insolvencies',
    group: 'economy',
    summary: 'Company insolvency applications per year, opened or rejected for lack of assets, with employees and claims affected (district-free cities)',
    table: '52411-02-01-4',
    fields: [
      { field: 'company_insolvencies', value: byCode('ISV006'), description: 'Insolvency applications of companies' },
      { field: 'proceedings_opened', value: byCode('ISV006'), where: { ISVAT3: 'ISVART01' }, description: 'Applications whose proceedings were opened' },
      { field: 'rejected_lack_of_assets', value: byCode('ISV006'), where: { ISVAT3: 'ISVART02' }, description: 'Applications rejected for lack of assets' },
      { field: 'employees_affected', value: byCode('ISVNW1'), description: 'Employees of the insolvent companies' },
      { field: 'expected_claims_thousand_eur', value: byCode('FOR002'), description: 'Expected claims of the creditors', unit: 'thousand EUR' },
    ],
    example: { city: 'koeln' },
  }),
  statisticsType({
    type: 'construction',
    label: 'Baugenehmigungen',
    label_en: 'Building permits',
    group: 'economy',
    summary: 'Permits for new residential buildings and their dwellings per year (municipality)',
    table: '31111-01-02-5',
    fields: [
      { field: 'residential_buildings', value: byLabel(/^(Genehmigte )?Wohngebäude/i), description: 'New residential buildings permitted' },
      { field: 'dwellings', value: byLabel(/^(Genehmigte )?Wohnungen/i), description: 'Dwellings in the permitted buildings' },
      { field: 'living_space_thousand_m2', value: byLabel(/Wohnfläche/i), description: 'Living space of the permitted dwellings', unit: 'thousand m²' },
      { field: 'estimated_costs_thousand_eur', value: byLabel(/Kosten/i), description: 'Estimated construction costs', unit: 'thousand EUR' },
    ],
    example: { city: 'koeln' },
  }),
  statisticsType({
    type: 'municipal-finance',
    label: 'Gemeindefinanzen',
    label_en: 'Municipal finance',
    group: 'economy',
    summary: 'Municipal tax revenue per year: trade tax, property tax, shares of income and value-added tax, tax revenue capacity',
    table: '71231-01-03-5',
    fields: [
      {
        field: 'property_tax_a_thousand_eur',
        value: byLabel(/^Ist-?aufkommen.*Grundsteuer A/i),
        description: 'Revenue of property tax A (agriculture and forestry)',
        unit: 'thousand EUR',
      },
      {
        field: 'property_tax_b_thousand_eur',
        value: byLabel(/^Ist-?aufkommen.*Grundsteuer B/i),
        description: 'Revenue of property tax B (other land)',
        unit: 'thousand EUR',
      },
      { field: 'trade_tax_thousand_eur', value: byLabel(/^Ist-?aufkommen.*Gewerbesteuer/i), description: 'Revenue of trade tax', unit: 'thousand EUR' },
      {
        field: 'trade_tax_levy_thousand_eur',
        value: byLabel(/^Gewerbesteuerumlage/i),
        description: 'Trade tax levy paid to federation and Land',
        unit: 'thousand EUR',
      },
      { field: 'trade_tax_net_thousand_eur', value: byLabel(/^Gewerbesteuer netto/i), description: 'Trade tax revenue net of the levy', unit: 'thousand EUR' },
      {
        field: 'income_tax_share_thousand_eur',
        value: byLabel(/Gemeindeanteil an der Einkommensteuer/i),
        description: 'Municipal share of income tax',
        unit: 'thousand EUR',
      },
      {
        field: 'vat_share_thousand_eur',
        value: byLabel(/Gemeindeanteil an der Umsatzsteuer/i),
        description: 'Municipal share of value-added tax',
        unit: 'thousand EUR',
      },
      {
        field: 'tax_revenue_capacity_thousand_eur',
        value: byLabel(/^Steuereinnahmekraft/i),
        description: 'Tax revenue capacity (Steuereinnahmekraft)',
        unit: 'thousand EUR',
      },
    ],
    example: { city: 'koeln' },
  }),
  statisticsType({
    type: 'tax-rates',
    label: 'Hebesätze',
    label_en: 'Local tax rates',
    group: 'economy',
    summary: 'Multipliers (Hebesätze, %) of property tax A and B and trade tax set by the municipality',
    table: '71231-01-03-5',
    fields: [
      { field: 'property_tax_a_rate_pct', value: byLabel(/^Hebesatz.*Grundsteuer A/i), description: 'Multiplier (Hebesatz) of property tax A', unit: '%' },
      { field: 'property_tax_b_rate_pct', value: byLabel(/^Hebesatz.*Grundsteuer B/i), description: 'Multiplier (Hebesatz) of property tax B', unit: '%' },
      { field: 'trade_tax_rate_pct', value: byLabel(/^Hebesatz.*Gewerbesteuer/i), description: 'Multiplier (Hebesatz) of trade tax', unit: '%' },
    ],
    example: { city: 'koeln' },
  }),
  statisticsType({
    type: 'vehicle-registrations',
    label: 'Kfz-Bestand',
    label_en: 'Registered vehicles',
    group: 'economy',
    summary: 'Registered motor vehicles on 1 January by vehicle type (district-free cities)',
    table: '46251-01-03-4',
    fields: [
      { field: 'vehicles', value: VEHICLES, description: 'Registered motor vehicles' },
      { field: 'passenger_cars', value: VEHICLES, attribute: byLabel(/^Personenkraftwagen/i), description: 'Registered passenger cars' },
    ],
    breakdown: {
      key: 'by_vehicle_type',
      description: 'Registered motor vehicles per vehicle type',
      variable: byLabel(/Kraftfahrzeugart/i),
      fields: [{ field: 'vehicles', value: VEHICLES, description: 'Registered vehicles of this type' }],
    },
    example: { city: 'koeln' },
  }),
];

import { ratio } from '../sources/genesis/adapters.ts';
import { byCode, byLabel, bySex, statisticsType } from './statistics-type.ts';
import { dataType, globalType, type DataType } from '../core/data-type.ts';
import { tendersIngest } from '../jobs/tenders-ingest.ts';
import { TenderRecord } from '../core/records/tenders.ts';
import { VERGABE } from '../sources/vergabe/source.ts';
import { cityTenders, nationalTenders } from '../sources/vergabe/adapters.ts';
import { TENDER_DAYS } from '../sources/vergabe/stored.ts';
import { LandValuesRecord } from '../core/records/land.ts';
import { GENESIS } from '../sources/genesis/source.ts';
import { BORIS } from '../sources/boris/source.ts';
import { BORIS_STATES, STATES_WITHOUT } from '../sources/boris/states.ts';
import { LAND_TABLE, landValues } from '../sources/genesis/land-values.ts';

const VEHICLES = byLabel(/Kraftfahrzeugbestand|Bestand an Kraftfahrzeugen/i);
const EMPLOYEES = byCode('ERW032');

const INGEST =
  `The tenders-ingest job reads the daily OCDS exports of the last ${TENDER_DAYS} publication days (one JSON file per notice in a ZIP, ` +
  'read in memory, member names checked) into the store; request paths never download.';

/** Economy and finance: declarations only (official statistics read by the generic GENESIS adapter; the others' adapters live in their source modules). */
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
  dataType({
    type: 'public-tenders',
    label: 'Öffentliche Ausschreibungen',
    label_en: 'Public tenders',
    group: 'economy',
    summary: `Procurement notices of the last ${TENDER_DAYS} days whose contracting authority is located in the city (Datenservice Öffentlicher Einkauf)`,
    description:
      INGEST +
      ' A notice belongs to the city when its buyer\'s address locality is the city\'s name or an alias ("Stadt"/"Landeshauptstadt" ' +
      'prefixes ignored); the post code alone is not used. Newest first, paged.',
    record: TenderRecord,
    list: true,
    cache: 'stored',
    example: { city: 'koeln' },
    sources: [{ role: 'primary', source: VERGABE, adapter: cityTenders, jobs: [tendersIngest] }],
  }),
  globalType({
    type: 'tenders',
    label: 'Ausschreibungen bundesweit',
    label_en: 'Tenders nationwide',
    group: 'economy',
    summary: `All procurement notices of the last ${TENDER_DAYS} publication days in Germany, newest first, filterable by text and CPV code`,
    description: INGEST + ' q matches title, description, buyer and place (case-insensitive); cpv matches the start of any CPV code.',
    path: '/api/v1/tenders',
    params: [
      { name: 'q', type: 'string', description: 'Free text in title, description, buyer or place', pattern: /^.{2,100}$/, patternHint: '2 to 100 characters' },
      {
        name: 'cpv',
        type: 'string',
        description: 'CPV code or its leading digits (2 to 8 digits), e.g. 45 or 90911200',
        pattern: /^\d{2,8}$/,
        patternHint: '2 to 8 digits',
      },
    ],
    record: TenderRecord,
    list: true,
    cache: 'stored',
    example: { params: { cpv: '909' } },
    sources: [{ role: 'primary', source: VERGABE, adapter: nationalTenders, jobs: [tendersIngest] }],
  }),
  dataType({
    type: 'land-values',
    label: 'Baulandpreise',
    label_en: 'Land values',
    group: 'economy',
    summary:
      'Building-land prices in the city: the statistical offices’ average purchase price (district-free cities) and the standard land values of the state’s open BORIS service (median and range of residential zones)',
    description:
      `Two parts, each with its own source and licence (building_land_source, standard_land_values.provenance); ok when either has data. ` +
      `(1) Regionaldatenbank table ${LAND_TABLE} (Kaufwerte für Bauland, per district): sales, area, purchase sum and average price per m² ` +
      'of all building land and of building-ready land for the newest year with values; the comparable nationwide figure. It exists per ' +
      'district only, so a city inside a district gets none (building_land_note says so); needs GENESIS credentials. ' +
      `(2) Standard land values (Bodenrichtwerte) from the open BORIS WFS of ${BORIS_STATES.map((s) => s.state).join(', ')}: median, lowest and ` +
      'highest value of the residential building-land zones with the reference date, read keyless. They are set per state by the expert ' +
      'committees with differing zoning practice, so they are not offered for comparison across cities. ' +
      `No open BORIS part for ${Object.keys(STATES_WITHOUT).join(', ')} (standard_land_values_note says why: no open service, ` +
      'shapefile downloads only, or normalised values only). Without GENESIS credentials the BORIS part answers alone (meta.answered_by).',
    record: LandValuesRecord,
    cache: { freshSeconds: 86_400, staleSeconds: 30 * 86_400 },
    compare: { resource: 'land-values', value: 'building_land.price_eur_m2' },
    example: { city: 'berlin' },
    sources: [
      // Whichever answers, the adapter reads both parts: the price table (GENESIS) and the standard land values (BORIS).
      { role: 'primary', source: GENESIS, adapter: landValues },
      { role: 'part', source: GENESIS },
      { role: 'part', source: BORIS },
      {
        role: 'stand-in',
        source: BORIS,
        adapter: landValues,
        note: 'Standard land values of the state’s BORIS service only (keyless); the building-land price table needs GENESIS credentials.',
      },
    ],
  }),
];

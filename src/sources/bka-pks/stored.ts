import { decodeText } from '../../core/delimited.ts';

/** Store keys of the ingested PKS city table (written by the crime-stats-ingest job). */
export const crimeKey = (slug: string) => `crime:v1:${slug}`;
export const CRIME_META_KEY = 'crime:v1:meta';
export const CRIME_TTL_MS = 800 * 86_400_000;

export interface CrimeMeta {
  report_year: number;
  version: string | null;
  file: string;
  cities_in_table: number;
  computed_at: string;
}

/** Path of the city table of a report year below the source's base URL. */
export const cityTablePath = (year: number) => `/${year}/Stadt/Faelle/ST-F-01-T01-Staedte-Faelle-HZ_csv.csv`;

/** The BKA's required credit line. */
export const creditLine = (m: Pick<CrimeMeta, 'report_year' | 'version'>) =>
  `PKS Bundeskriminalamt, Berichtsjahr ${m.report_year}${m.version ? `, Version ${m.version}` : ''}`;

/** UTF-8 when valid, else Windows-1252 (the BKA's CSVs are Latin-1). */
export const decodeTable = decodeText;

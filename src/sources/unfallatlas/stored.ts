/** Store keys of the ingested Unfallatlas year (written by the accidents-ingest job). */
export const accidentsKey = (slug: string) => `accidents:v1:${slug}`;
export const ACCIDENTS_META_KEY = 'accidents:v1:meta';
/** Kept well past a year so a failed yearly run leaves the previous year readable. */
export const ACCIDENTS_TTL_MS = 800 * 86_400_000;

export interface AccidentsMeta {
  year: number;
  file: string;
  rows: number;
  /** Two-digit Land codes present in the file (early years lack some Länder). */
  states: string[];
  computed_at: string;
}

/** The Unfallatlas ZIP of a year on the portal. */
export const yearFile = (year: number) => `Unfallorte${year}_EPSG25832_CSV.zip`;

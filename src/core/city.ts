/*
 * The shape of a city of the register (src/cities/), here in the base so that the contract (data
 * types, fetch contexts, history) can name it without importing the register above it.
 */

/** One register entry; see src/cities/PROVENANCE.md for where each value comes from. */
export interface City {
  slug: string;
  name: string;
  ags: string;
  ars: string;
  state: string;
  state_name: string;
  lat: number;
  lon: number;
  population: number;
  population_date: string;
  area_km2: number | null;
  wikidata: string;
  osm_relation: number | null;
  aliases: string[];
  core: boolean;
  state_capital: boolean;
  district_free: boolean;
}

// A JSON import (not a file read relative to this module), like register.json.
import table from './local-holidays.json' with { type: 'json' };
import type { City } from './register.ts';

/**
 * Where public holidays below state level apply, as data (provenance: PROVENANCE.md, "Local
 * public holidays"). Two kinds: OpenHolidays' own subdivisions below a state (the API lists
 * their holidays with that code when asked for the state), and holidays a state law grants only
 * in some of its municipalities that OpenHolidays does not list for that state at all.
 */
export interface OpenHolidaysSubdivision {
  code: string;
  parent: string;
  category: string;
  name: string;
  /** The AGS of the municipality (8 digits) or district (5 digits) the subdivision covers. */
  ags_prefix: string;
}

export interface PartialStateArea {
  ags_prefix: string;
  name: string;
  /** `whole`: every municipality of the district; `some`: only those listed in `municipalities`. */
  extent: 'whole' | 'some';
}

export interface PartialStateHoliday {
  name: string;
  /** State code as in the register (e.g. SN). */
  state: string;
  /** Days after Easter Sunday (Corpus Christi: 60). */
  easter_offset_days: number;
  rule: string;
  areas: PartialStateArea[];
  /** AGS of municipalities inside a `some` area where the holiday applies. */
  municipalities: string[];
}

export const OPENHOLIDAYS_SUBDIVISIONS: readonly OpenHolidaysSubdivision[] = table.openholidays_subdivisions;
export const PARTIAL_STATE_HOLIDAYS: readonly PartialStateHoliday[] = table.partial_state_public_holidays as PartialStateHoliday[];

/** OpenHolidays subdivisions below state level whose area contains the city (by AGS). */
export function localSubdivisionsOf(city: Pick<City, 'ags' | 'state'>): OpenHolidaysSubdivision[] {
  return OPENHOLIDAYS_SUBDIVISIONS.filter((s) => s.parent === `DE-${city.state}` && city.ags.startsWith(s.ags_prefix));
}

export interface PartialStateVerdict {
  holiday: PartialStateHoliday;
  applies: boolean;
  /** Why (not): the area or municipality entry that decided, in words. */
  reason: string;
}

/** For each partial-state holiday of the city's state: whether the city lies where it applies. */
export function partialStateHolidaysOf(city: Pick<City, 'ags' | 'state' | 'name'>): PartialStateVerdict[] {
  return PARTIAL_STATE_HOLIDAYS.filter((h) => h.state === city.state).map((holiday) => {
    const area = holiday.areas.find((a) => city.ags.startsWith(a.ags_prefix));
    if (!area) {
      const names = holiday.areas.map((a) => a.name).join(', ');
      return { holiday, applies: false, reason: `${city.name} (AGS ${city.ags}) lies outside ${names}` };
    }
    if (area.extent === 'whole') return { holiday, applies: true, reason: `${city.name} lies in ${area.name}, where it applies everywhere` };
    const listed = holiday.municipalities.includes(city.ags);
    return {
      holiday,
      applies: listed,
      reason: listed
        ? `${city.name} is one of the municipalities of ${area.name} named for it`
        : `${city.name} lies in ${area.name} but is not among the municipalities the register names for it`,
    };
  });
}

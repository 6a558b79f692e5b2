import { dataType, type DataType } from '../../core/data-type.ts';
import type { ParamDecl } from '../../core/params.ts';
import { LiveBoardRecord } from '../../core/records/departures.ts';
import { VAG } from '../../sources/vag/source.ts';
import { VAG_DEFAULT_STOP, vagDepartures } from '../../sources/vag/adapters.ts';
import { EFA } from '../../sources/efa/source.ts';
import { EFA_DEFAULT_STOPS, efaDepartures } from '../../sources/efa/adapters.ts';
import { HVV_GEOFOX } from '../../sources/hvv/source.ts';
import { HVV_DEFAULT_STATION, hvvDepartures } from '../../sources/hvv/adapters.ts';
import { RMV } from '../../sources/rmv/source.ts';
import { RMV_DEFAULT_STOP, rmvDepartures } from '../../sources/rmv/adapters.ts';

/** Live departures per stop from the cities' own transit feeds. Declarations only. */

const CACHE = { freshSeconds: 30, staleSeconds: 120 };
const LIVE = { refreshSeconds: 30 };

const stopParam = (description: string, pattern: RegExp, patternHint: string): ParamDecl => ({
  name: 'stop',
  type: 'string',
  description,
  pattern,
  patternHint,
});

export const DEPARTURE_TYPES: DataType[] = [
  dataType({
    type: 'departures-vag',
    label: 'Abfahrten Nürnberg (VAG)',
    label_en: 'Departures Nuremberg (VAG)',
    group: 'transport',
    tool: 'departures',
    summary: 'Live departures per stop in Nuremberg, VAG real-time feed (keyless)',
    description: `Per VGN stop number (?stop=, default ${VAG_DEFAULT_STOP} = Nürnberg Hauptbahnhof). delay_s = actual - planned; the feed does not report cancellations (cancelled=null).`,
    path: '/api/v1/live/nuernberg/departures',
    fixedCity: 'nuernberg',
    params: [stopParam('VGN stop number', /^\d{1,7}$/, 'a numeric VGN stop number (e.g. 510)')],
    record: LiveBoardRecord,
    list: 'departures',
    cache: CACHE,
    live: LIVE,
    // The VAG fixture is the real answer for stop 536 (Schweiggerstr.).
    example: { city: 'nuernberg', params: { stop: '536' } },
    sources: [{ role: 'primary', source: VAG, adapter: vagDepartures }],
  }),
  dataType({
    type: 'departures-efa',
    label: 'Abfahrten (VRR, VVS)',
    label_en: 'Departures (VRR, VVS)',
    group: 'transport',
    tool: 'departures',
    summary: 'Live departures per station for the core cities of the VRR network plus Stuttgart (VVS), EFA departure monitor',
    description:
      'Stop by DELFI global id (de:05113:9289), numeric EFA id or name (?stop=); default is the main station. Covers the VRR core cities Düsseldorf, Essen, Dortmund, Duisburg, Bochum and Wuppertal plus Stuttgart.',
    path: '/api/v1/live/{city}/departures',
    coverage: {
      cities: Object.keys(EFA_DEFAULT_STOPS),
      note: 'EFA departure monitors of VRR (Rhine-Ruhr core cities) and VVS (Stuttgart); Nuremberg, Hamburg and Frankfurt have their own departure routes',
    },
    params: [
      stopParam(
        'EFA stop: DELFI global id, numeric id or stop name',
        /^[\p{L}\p{N} .,:()'/-]{2,80}$/u,
        'a DELFI stop id such as de:05113:9289, a numeric EFA id or a stop name',
      ),
    ],
    record: LiveBoardRecord,
    list: 'departures',
    cache: CACHE,
    live: LIVE,
    // The EFA fixture is the real VVS answer for Stuttgart-Vaihingen.
    example: { city: 'stuttgart', params: { stop: 'de:08111:6002' } },
    sources: [{ role: 'primary', source: EFA, adapter: efaDepartures }],
  }),
  dataType({
    type: 'departures-hvv',
    label: 'Abfahrten Hamburg (HVV)',
    label_en: 'Departures Hamburg (HVV)',
    group: 'transport',
    tool: 'departures',
    summary: 'Live departures per station in Hamburg, HVV Geofox GTI',
    description: `Station by HVV id (Master:10901) or name (?stop=, default "${HVV_DEFAULT_STATION}", resolved with GTI checkName). Needs server-side GTI credentials.`,
    path: '/api/v1/live/hamburg/departures',
    fixedCity: 'hamburg',
    params: [stopParam('HVV station id or name', /^(Master:\d{1,9}|[\p{L}\p{N} .,()'/-]{2,80})$/u, 'an HVV station id such as Master:10901 or a station name')],
    record: LiveBoardRecord,
    list: 'departures',
    cache: CACHE,
    live: LIVE,
    // The GTI fixture is the real departureList of Wartenau (Master:10901).
    example: { city: 'hamburg', params: { stop: 'Master:10901' } },
    sources: [{ role: 'primary', source: HVV_GEOFOX, adapter: hvvDepartures }],
  }),
  dataType({
    type: 'departures-rmv',
    label: 'Abfahrten Frankfurt (RMV)',
    label_en: 'Departures Frankfurt (RMV)',
    group: 'transport',
    tool: 'departures',
    summary: 'Live departures per stop in Frankfurt and the Rhine-Main area, RMV HAFAS',
    description: `RMV stop id (?stop=, default ${RMV_DEFAULT_STOP} = Frankfurt (Main) Hauptbahnhof). Needs a server-side RMV access id.`,
    path: '/api/v1/live/frankfurt-am-main/departures',
    fixedCity: 'frankfurt-am-main',
    params: [stopParam('RMV stop id (extId)', /^\d{6,9}$/, 'a numeric RMV stop id (e.g. 3000010)')],
    record: LiveBoardRecord,
    list: 'departures',
    cache: CACHE,
    live: LIVE,
    example: { city: 'frankfurt-am-main', params: { stop: RMV_DEFAULT_STOP } },
    sources: [{ role: 'primary', source: RMV, adapter: rmvDepartures }],
  }),
];

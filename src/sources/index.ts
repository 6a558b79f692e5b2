import type { SourceDecl } from '../core/source.ts';
import { WIKIDATA } from './wikidata/source.ts';
import { BRIGHTSKY, BRIGHTSKY_ALERTS } from './brightsky/source.ts';
import { UBA } from './uba/source.ts';
import { GENESIS } from './genesis/source.ts';
import { WEGWEISER, WEGWEISER_SDG } from './wegweiser/source.ts';
import { INKAR } from './inkar/source.ts';
import { BA_STATISTIK } from './ba/source.ts';
import { ZENSUS_GRID } from './zensus/source.ts';
import { GV_ISYS } from './gv-isys/source.ts';
import { BNETZA } from './bnetza/source.ts';
import { MOBIDATA_OCPDB } from './mobidata/source.ts';
import { OVERPASS } from './overpass/source.ts';
import { STADA } from './stada/source.ts';
import { DB_OPEN_STATIONS } from './db-open-stations/source.ts';
import { DB_TIMETABLES } from './db-timetables/source.ts';
import { GTFS_DE } from './gtfs/source.ts';
import { VAG } from './vag/source.ts';
import { EFA } from './efa/source.ts';
import { HVV_GEOFOX } from './hvv/source.ts';
import { RMV } from './rmv/source.ts';
import { DWD_HEALTH } from './dwd-health/source.ts';
import { PEGELONLINE } from './pegelonline/source.ts';
import { DWD_FIRE } from './dwd-fire/source.ts';
import { LHP } from './lhp/source.ts';
import { PVGIS } from './pvgis/source.ts';
import { ENERGIEATLAS_NRW } from './energieatlas-nrw/source.ts';
import { EEA_BATHING } from './eea-bathing/source.ts';
import { OPENHOLIDAYS } from './openholidays/source.ts';
import { OPARL } from './oparl/source.ts';
import { BKG_VG250 } from './bkg/source.ts';
import { WIKIDATA_SPARQL } from './wikidata-sparql/source.ts';
import { DESTINATION_ONE } from './destination-one/source.ts';
import { KOELN_WAITING } from './koeln-waiting/source.ts';
import { TREE_WFS } from './tree-wfs/source.ts';
import { AUTOBAHN } from './autobahn/source.ts';
import { HAMBURG_VERKEHRSLAGE } from './hamburg-verkehrslage/source.ts';
import { BERLIN_VIZ } from './berlin-viz/source.ts';
import {
  FRANKFURT_PARKING,
  MAGDEBURG_PARKING,
  MOBILITHEK_EROUND,
  MOBILITHEK_HANNOVER,
  MOBILITHEK_KIEL,
  MOBILITHEK_KOELN_LEZ,
  WUPPERTAL_PARKING,
} from './mobilithek/sources.ts';
import { NINA } from './nina/source.ts';
import { BUNDESWAHLLEITERIN } from './bundeswahlleiterin/source.ts';
import { SMARD } from './smard/source.ts';
import { MASTR } from './mastr/source.ts';
import { UNFALLATLAS } from './unfallatlas/source.ts';
import { BKA_PKS } from './bka-pks/source.ts';
import { VERGABE } from './vergabe/source.ts';
import { KLINIKATLAS } from './klinikatlas/source.ts';
import { CITY_PARKING } from './city-parking/source.ts';
import { TANKERKOENIG } from './tankerkoenig/source.ts';
import { VRN_PARK_RIDE } from './vrn-park-ride/source.ts';
import { PARKAPI_V3 } from './parkapi-v3/source.ts';
import { BIKE_COUNTERS } from './bike-counters/source.ts';
import { MUENCHEN_GEOPORTAL } from './muenchen-geoportal/source.ts';
import { DB_FASTA } from './db-fasta/source.ts';
import { NEXTBIKE_GBFS } from './nextbike/source.ts';
import { KOELN_VERKEHR } from './koeln-verkehr/source.ts';
import { BORIS } from './boris/source.ts';

/** Every upstream the service knows. Order is the default order of GET /api/v1/sources. */
export const SOURCES: readonly SourceDecl[] = [
  WIKIDATA,
  BRIGHTSKY,
  BRIGHTSKY_ALERTS,
  UBA,
  GENESIS,
  BORIS,
  WEGWEISER,
  WEGWEISER_SDG,
  INKAR,
  BA_STATISTIK,
  ZENSUS_GRID,
  GV_ISYS,
  BNETZA,
  MOBIDATA_OCPDB,
  OVERPASS,
  STADA,
  DB_OPEN_STATIONS,
  DB_TIMETABLES,
  GTFS_DE,
  VAG,
  EFA,
  HVV_GEOFOX,
  RMV,
  DWD_HEALTH,
  PEGELONLINE,
  DWD_FIRE,
  LHP,
  PVGIS,
  ENERGIEATLAS_NRW,
  EEA_BATHING,
  OPENHOLIDAYS,
  OPARL,
  BKG_VG250,
  WIKIDATA_SPARQL,
  DESTINATION_ONE,
  KOELN_WAITING,
  TREE_WFS,
  AUTOBAHN,
  HAMBURG_VERKEHRSLAGE,
  KOELN_VERKEHR,
  BERLIN_VIZ,
  MOBILITHEK_HANNOVER,
  MOBILITHEK_KIEL,
  MOBILITHEK_KOELN_LEZ,
  FRANKFURT_PARKING.source,
  MAGDEBURG_PARKING.source,
  WUPPERTAL_PARKING.source,
  MOBILITHEK_EROUND,
  NINA,
  BUNDESWAHLLEITERIN,
  SMARD,
  MASTR,
  UNFALLATLAS,
  BKA_PKS,
  VERGABE,
  KLINIKATLAS,
  CITY_PARKING,
  TANKERKOENIG,
  VRN_PARK_RIDE,
  PARKAPI_V3,
  BIKE_COUNTERS,
  MUENCHEN_GEOPORTAL,
  DB_FASTA,
  NEXTBIKE_GBFS,
];

import { dataType, type DataType } from '../core/data-type.ts';
import { ElectionRecord } from '../core/records/election.ts';
import { BUNDESWAHLLEITERIN } from '../sources/bundeswahlleiterin/source.ts';
import { electionResults } from '../sources/bundeswahlleiterin/adapters.ts';

const DAY = 86400;

/** Society (further types): declarations only (adapters live in their source modules). */
export const SOCIETY_EXTRA_TYPES: DataType[] = [
  dataType({
    type: 'election',
    label: 'Bundestagswahl',
    label_en: 'Federal election',
    group: 'society',
    summary: 'Latest federal election in the city: turnout and second-vote shares per party, per constituency and for the city',
    description:
      'Official results per constituency (kerg2.csv of Die Bundeswahlleiterin) mapped to the city through the official assignment of ' +
      'municipalities to constituencies. A city with several constituencies gets them added up in city_totals (shares recomputed from ' +
      'the summed votes). A constituency that also covers other municipalities is listed with shared: true and its figures are never ' +
      'attributed to the city; city_totals is then null and meta.city_totals_reason says why. Results exist per constituency only, so a ' +
      'city inside a shared constituency has no figures of its own.',
    source: BUNDESWAHLLEITERIN,
    record: ElectionRecord,
    cache: { freshSeconds: DAY, staleSeconds: 90 * DAY },
    compare: { resource: 'election', value: 'city_totals.turnout_pct' },
    example: { city: 'koeln' },
    adapter: electionResults,
  }),
];

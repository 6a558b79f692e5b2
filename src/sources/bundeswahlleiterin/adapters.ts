import type { Adapter, CacheWindows } from '../../core/data-type.ts';
import type { ElectionConstituency, ElectionFigures, ElectionRecord } from '../../core/records/election.ts';
import { parseAssignment, type Assignment } from './assignment.ts';
import { parseKerg2, type ConstituencyResult, type ElectionResults } from './kerg2.ts';

const DAY = 86400;
/** Both files change only with a new election (or a correction): a week fresh, a quarter stale. */
const FILE_WINDOWS: CacheWindows = { freshSeconds: 7 * DAY, staleSeconds: 90 * DAY };

const pct = (part: number | null, whole: number | null) => (part !== null && whole ? Math.round((part / whole) * 100000) / 1000 : null);

function figures(r: ConstituencyResult): ElectionFigures {
  return {
    eligible_voters: r.eligible_voters,
    voters: r.voters,
    turnout_pct: pct(r.voters, r.eligible_voters),
    valid_second_votes: r.valid_second_votes,
    second_votes: [...r.second_votes].sort((a, b) => (b.votes ?? 0) - (a.votes ?? 0)),
  };
}

const add = (a: number | null, b: number | null) => (a === null || b === null ? null : a + b);

/** The constituencies added up; shares recomputed from the summed votes. */
function sum(results: ConstituencyResult[]): ElectionFigures {
  const votes = new Map<string, number>();
  for (const r of results) for (const p of r.second_votes) votes.set(p.party, (votes.get(p.party) ?? 0) + (p.votes ?? 0));
  const total: ConstituencyResult = {
    name: null,
    eligible_voters: results.map((r) => r.eligible_voters).reduce(add),
    voters: results.map((r) => r.voters).reduce(add),
    valid_second_votes: results.map((r) => r.valid_second_votes).reduce(add),
    second_votes: [],
  };
  total.second_votes = [...votes].map(([party, v]) => ({ party, votes: v, share_pct: pct(v, total.valid_second_votes) }));
  return figures(total);
}

/**
 * Latest federal election for the city: the official assignment names its constituencies;
 * a constituency covering other municipalities too is listed with `shared: true` and never
 * added to the city's totals.
 */
export const electionResults: Adapter<ElectionRecord> = async ({ city, http, cached }) => {
  const assignment = await cached<Assignment>('assignment', FILE_WINDOWS, async () => parseAssignment(await http.text('', { base: http.url('assignment') })));
  const numbers = assignment.byAgs[city.ags] ?? [];
  if (numbers.length === 0)
    return { data: null, status: 'no_data', meta: { reason: `the constituency assignment lists no municipality with AGS ${city.ags}` } };
  const results = await cached<ElectionResults>('results', FILE_WINDOWS, async () => parseKerg2(await http.text('', { base: http.url('results') })));
  const constituencies: ElectionConstituency[] = [];
  const found: ConstituencyResult[] = [];
  const missing: number[] = [];
  for (const nr of numbers) {
    const r = results.constituencies[String(nr)];
    const shared = (assignment.municipalities[String(nr)] ?? 0) > 1;
    if (!r) {
      missing.push(nr);
      continue;
    }
    if (!shared) found.push(r);
    constituencies.push({ number: nr, name: r.name, shared, ...figures(r) });
  }
  if (constituencies.length === 0)
    return { data: null, status: 'no_data', meta: { reason: 'the results file has no row for the city’s constituencies', constituency_numbers: numbers } };
  const complete = missing.length === 0 && constituencies.every((c) => !c.shared);
  const meta: Record<string, unknown> = {};
  if (missing.length) meta.missing_constituencies = missing;
  if (!complete) {
    meta.city_totals_reason = constituencies.some((c) => c.shared)
      ? 'a constituency of the city also covers other municipalities; its figures are not attributed to the city'
      : 'the results file lacks one of the city’s constituencies';
  }
  return {
    data: {
      election: results.election,
      election_date: results.election_date,
      result_status: results.result_status,
      constituencies,
      city_totals: complete ? sum(found) : null,
    },
    meta,
  };
};

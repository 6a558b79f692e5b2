import { date, int, list, num, record, text, bool, lazy, type Infer } from '../schema.ts';

const party = lazy(() =>
  record({
    party: text('Party or group as the returning officer names it'),
    votes: int('Valid second votes'),
    share_pct: num('Share of the valid second votes', '%'),
  }),
);

const figures = {
  eligible_voters: int('Persons entitled to vote'),
  voters: int('Persons who voted'),
  turnout_pct: num('Turnout: voters per eligible voter', '%'),
  valid_second_votes: int('Valid second votes'),
  second_votes: list(party(), 'Second votes per party, most votes first; parties without a list here are left out'),
};

const constituency = lazy(() =>
  record({
    number: int('Constituency (Wahlkreis) number'),
    name: text('Constituency name'),
    shared: bool('The constituency also covers other municipalities: its figures are not the city’s and are not added to city_totals'),
    ...figures,
  }),
);

export const ElectionRecord = lazy(() =>
  record({
    election: text('Election, e.g. Bundestagswahl'),
    election_date: date('Election day'),
    result_status: text('Status of the published result, e.g. Endgültig (final)'),
    constituencies: list(constituency(), 'Constituencies the official assignment gives the city, with their own figures'),
    city_totals: record(figures, 'The city’s constituencies added up; null when one of them is shared with other municipalities').nullable(),
  }),
);
export type ElectionRecord = Infer<typeof ElectionRecord>;
export type ElectionFigures = NonNullable<ElectionRecord['city_totals']>;
export type ElectionConstituency = ElectionRecord['constituencies'][number];

import { bool, date, list, record, text, time, z } from '../schema.ts';

const holiday = record({
  id: text('OpenHolidays id of the holiday (UUID)'),
  name: text('Name, German'),
  start: date('First day'),
  end: date('Last day (equal to start for a single day)'),
  scope: z
    .enum(['national', 'regional', 'local'])
    .nullable()
    .meta({ description: 'Where it applies: nationwide, in the whole state (or several), or only in a part of it' }),
  nationwide: bool('Whether it applies in all of Germany'),
  half_day: bool('Whether only part of the day is free (OpenHolidays temporalScope HalfDay)'),
  subdivisions: z.array(z.string()).meta({ description: 'OpenHolidays subdivision codes it applies to, e.g. DE-BY or DE-BY-AU (empty when nationwide)' }),
  note: text('Remark of the source, German (e.g. where exactly a regional holiday applies)'),
});

export const HolidaysRecord = record({
  subdivision_code: text("OpenHolidays code of the city's state, e.g. DE-BY"),
  local_subdivision_codes: z
    .array(z.string())
    .meta({ description: 'Codes of parts of the state the city lies in whose local holidays are included (e.g. DE-BY-AU for Augsburg)' }),
  valid_from: date('First day covered (1 January of the current year)'),
  valid_to: date('Last day covered (31 December of the next year)'),
  public_holidays: list(holiday, 'Public holidays that apply in the city, by date'),
  school_holidays: list(holiday, "School holidays of the city's state, by date"),
});
export type HolidaysRecord = z.infer<typeof HolidaysRecord>;
export type Holiday = HolidaysRecord['public_holidays'][number];

const paper = record({
  id: text('OParl id of the paper (its URL in the council information system)'),
  name: text('Title of the paper'),
  reference: text('Reference number (Drucksachennummer)'),
  date: date('Date of the paper'),
  paper_type: text('Kind of paper as the system names it, e.g. Beschlussvorlage, Antrag, Anfrage'),
  main_file_url: text('Download (or access) URL of the main document, usually a PDF; linked, never mirrored'),
  main_file_mime_type: text('Media type of the main document'),
  web_url: text("The paper's page in the council information system"),
  modified: time('Last change in the system'),
});

export const CouncilPapersRecord = record({
  system_name: text('Name of the council information system (OParl System.name)'),
  body_name: text('The body (municipality) the papers belong to'),
  license: text('Licence of the papers: as the OParl system states it, else as the city grants it'),
  license_stated_by: z.enum(['system', 'city']).meta({ description: 'Whether the licence comes from the OParl System object or from the city' }),
  requested_since: time('modified_since sent to the system (papers changed since); systems that ignore it list older papers too'),
  papers: list(paper, 'Recent papers, newest first'),
});
export type CouncilPapersRecord = z.infer<typeof CouncilPapersRecord>;
export type CouncilPaper = CouncilPapersRecord['papers'][number];

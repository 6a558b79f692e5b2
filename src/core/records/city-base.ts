import { bool, date, list, record, text, z } from '../schema.ts';

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

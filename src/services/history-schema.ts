import { lazy, z } from '../core/schema.ts';
import { count } from '../core/envelope-schema.ts';

const time = (description: string) => z.iso.datetime({ offset: true }).meta({ description });
const maybe = (description: string) => z.number().nullable().meta({ description });

/** One point as recorded (no `every`). */
export const PointRow = z.strictObject({
  as_of: time("The upstream's own time of the value (the fetch time where the upstream gives none)"),
  field: z.string().meta({ description: 'Recorded field (meta.fields names its unit)' }),
  value: maybe('The value'),
  backfilled: z.boolean().meta({ description: "Read from the upstream's past when the recording started, not recorded as served" }),
});

/** One downsampled bucket (`every`). */
export const BucketRow = z.strictObject({
  t: time('Start of the bucket (UTC-aligned)'),
  field: z.string().meta({ description: 'Recorded field (meta.fields names its unit)' }),
  min: maybe('Smallest value in the bucket'),
  mean: maybe('Mean of the values in the bucket'),
  max: maybe('Largest value in the bucket'),
  n: count('Values in the bucket'),
  backfilled: z.boolean().meta({ description: 'At least one value of the bucket was backfilled' }),
});

/** The answer of GET /api/v1/cities/{city}/{type}/history. */
export const HistoryAnswer = lazy(() =>
  z.strictObject({
    data: z.union([z.array(PointRow), z.array(BucketRow)]).meta({ description: 'Flat rows, one per time (or bucket) and field, oldest first per field' }),
    meta: z.strictObject({
      type: z.string(),
      city: z.string(),
      source_status: z
        .enum(['ok', 'no_data'])
        .meta({ description: 'no_data: nothing recorded in the span (meta.recording_started says since when recording runs)' }),
      from: time('Start of the span (inclusive)'),
      to: time('End of the span (exclusive)'),
      every: z.enum(['15m', '1h', '1d']).nullable().meta({ description: 'Bucket width, null for points as recorded' }),
      fields: z.array(z.strictObject({ name: z.string(), unit: z.string() })).meta({ description: 'The fields the type records (catalog declaration)' }),
      series: z.array(
        z.strictObject({
          field: z.string(),
          unit: z.string(),
          source: z.string().meta({ description: 'Source id of the recorded values' }),
          license: z.string(),
          recording_started: time('When the recording of this series started'),
          first: time('Oldest point of the series').nullable(),
          last: time('Newest point of the series').nullable(),
          points: count('Points of the series (all time)'),
          backfilled_points: count('Of those, backfilled from the upstream'),
          gaps: count('Empty buckets between the first and the last bucket of this answer').optional(),
          gap_spans: z
            .array(z.strictObject({ from: time('Gap start'), to: time('Gap end') }))
            .optional()
            .meta({ description: 'The first 20 gaps' }),
        }),
      ),
      backfilled: z.boolean().meta({ description: 'Some row holds a backfilled value' }),
      total: count('Rows'),
      recording_started: time('When the recording of this type started (in this city, else anywhere)').nullable().optional(),
      note: z.string().optional(),
      demo: z.literal(true).optional(),
    }),
  }),
);

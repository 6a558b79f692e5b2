import { lazy, z } from '../core/schema.ts';
import { Attribution, count, Pagination, tier } from '../core/envelope-schema.ts';

/**
 * The answers of the service routes (API index, health, cities, city, sources, overview, compare,
 * problems, coverage), one schema each, published in the OpenAPI document as the 200 body. They
 * mirror what the services send, field for field (strict objects): test/service-answers.test.ts
 * and every test's GET through test/helpers/app.ts check each answer against them, so a service
 * that gains a field fails until its schema says so.
 */

const time = (description: string) => z.iso.datetime({ offset: true }).meta({ description });
const slug = () => z.string().meta({ description: 'Canonical city slug' });
const demoFlag = () => z.literal(true).optional().meta({ description: 'Present (true) when the server runs the offline demo on recorded fixtures' });
const okStatus = () => z.literal('ok').meta({ description: 'Always ok for this answer; per-item states are inside data' });
/** An aggregate's own status: ok while something in it answers; error (or no_data) when nothing does. */
const aggregateStatus = (description: string) => z.enum(['ok', 'no_data', 'error']).meta({ description });
const sourceStateOf = (description: string) => z.enum(['answering', 'failing', 'untried', 'disabled']).meta({ description });
/** What a data-type request answers with (items and highlights also name the request-level outcomes). */
const itemStatus = (values: readonly [string, ...string[]], description: string) => z.enum(values).meta({ description });
const cacheStatus = () => z.enum(['HIT', 'MISS', 'STALE', 'STALE-ON-ERROR']).optional().meta({ description: 'How the cache answered this part' });
const breakerState = () => z.enum(['CLOSED', 'OPEN', 'HALF_OPEN']).meta({ description: 'Circuit breaker of the source' });
/** A data type's `data` as the named data type's operation documents it (a record or a list). */
const anyData = (description: string) =>
  z
    .union([z.record(z.string(), z.unknown()), z.array(z.unknown())])
    .nullable()
    .meta({ description });

export const CityEntry = lazy(() =>
  z
    .strictObject({
      slug: slug(),
      name: z.string().meta({ description: 'Official name' }),
      ags: z.string().meta({ description: 'Amtlicher Gemeindeschlüssel (8 digits)' }),
      ars: z.string().meta({ description: 'Amtlicher Regionalschlüssel (12 digits)' }),
      state: z.string().meta({ description: 'Federal state code, e.g. NW' }),
      state_name: z.string().meta({ description: 'Federal state name' }),
      lat: z.number().meta({ description: 'Latitude of the centre (WGS 84)' }),
      lon: z.number().meta({ description: 'Longitude of the centre (WGS 84)' }),
      population: count('Inhabitants'),
      population_date: z.iso.date().meta({ description: 'Reference date of population' }),
      area_km2: z.number().nullable().meta({ description: 'Area in km²' }),
      wikidata: z.string().meta({ description: 'Wikidata item' }),
      osm_relation: z.number().int().nullable().meta({ description: 'OpenStreetMap relation id' }),
      aliases: z.array(z.string()).meta({ description: 'Other spellings and exonyms the slug resolver accepts' }),
      core: z.boolean().meta({ description: 'One of the cities with full coverage' }),
      state_capital: z.boolean().meta({ description: 'Capital of its federal state' }),
      district_free: z.boolean().meta({ description: 'Kreisfreie Stadt' }),
      coverage: z.enum(['full', 'auto']).meta({ description: 'full: core city; auto: covered where sources reach it' }),
    })
    .meta({ description: 'One entry of the city register' }),
);

export const ApiIndexAnswer = lazy(() =>
  z.strictObject({
    data: z.strictObject({
      name: z.string(),
      version: z.string(),
      description: z.string(),
      catalog: z.string().meta({ description: 'The catalog counts in one sentence' }),
      links: z
        .strictObject(
          Object.fromEntries(
            [
              'cities',
              'city',
              'overview',
              'compare',
              'coverage',
              'sources',
              'health',
              'problems',
              'openapi_json',
              'openapi_yaml',
              'docs',
              'coverage_page',
              'mcp',
            ].map((k) => [k, z.string()]),
          ),
        )
        .meta({ description: 'Path of every part of the API (templates in braces)' }),
      examples: z.array(z.string()).meta({ description: 'Example requests that work on this instance' }),
      compare_resources: z.array(z.string()).meta({ description: 'Values of /api/v1/compare?resource=' }),
      formats: z
        .strictObject({
          how: z.string(),
          media_types: z.strictObject({ json: z.string(), csv: z.string(), geojson: z.string() }),
          offered: z.string(),
          headers: z.array(z.string()).meta({ description: 'Response headers carrying meta beside a CSV or GeoJSON body' }),
        })
        .meta({ description: 'How to ask a data type or compare for CSV or GeoJSON instead of JSON' }),
      data_types: z.array(
        z.strictObject({
          type: z.string(),
          label_en: z.string(),
          group: z.string().meta({ description: 'Topic' }),
          path: z.string().meta({ description: 'Route template' }),
          example: z.string().meta({ description: 'A request that works (the city its example models)' }),
          enabled: z.boolean().meta({ description: 'Whether a source can answer it on this server' }),
        }),
      ),
    }),
    meta: z.strictObject({ source_status: okStatus(), demo: demoFlag() }),
    attribution: z.null(),
  }),
);

export const HealthAnswer = lazy(() =>
  z.strictObject({
    data: z.strictObject({
      status: z
        .enum(['ok', 'degraded'])
        .meta({ description: 'degraded: the cache store (the app answers from memory) or the history store is unreachable; reasons says which' }),
      reasons: z.array(z.string()).meta({ description: 'Why the status is degraded, one line per store that does not answer (empty when ok)' }),
      version: z.string(),
      demo: z.boolean(),
      store: z.strictObject({
        kind: z.string().meta({ description: 'Cache store: redis, sqlite or memory' }),
        reachable: z.boolean(),
        fallback: z.string().nullable().meta({ description: 'What answers while the store is unreachable' }),
      }),
      uptime_seconds: count('Seconds since start'),
      sources: z.strictObject({
        total: count('Declared sources'),
        enabled: count('Sources switched on with their credentials set'),
        disabled: z.array(z.string()).meta({ description: 'Ids of sources switched off or lacking credentials' }),
        answering: count('Enabled sources whose latest call succeeded (breaker closed)'),
        failing: z.array(z.string()).meta({ description: 'Ids of enabled sources whose latest call failed, whose breaker is open, or whose answers drift' }),
        untried: count('Enabled sources not called since start'),
        open_breakers: z.array(z.string()).meta({ description: 'Ids of sources with at least one open host breaker' }),
        open_hosts: z
          .array(
            z.strictObject({
              source: z.string().meta({ description: 'Source id' }),
              host: z.string().meta({ description: 'Upstream host whose breaker is open' }),
            }),
          )
          .meta({ description: 'Every open breaker: the host and the source calling it' }),
        format_drift: z.array(z.string()).meta({ description: 'Ids of sources whose answers no longer match what their adapters read (format drift)' }),
      }),
      data_types: z.strictObject({
        data_types: count('Data types'),
        per_city: count('Answered per city'),
        global: count('Per station or nationwide'),
        cities: count('Cities in the register'),
        mcp_tools: count('MCP tools'),
        text: z.string().meta({ description: 'The counts in one sentence' }),
      }),
      history: z
        .strictObject({
          enabled: z.boolean().meta({ description: 'HISTORY_ENABLED' }),
          kind: z.enum(['sqlite', 'postgres']).optional().meta({ description: 'Where the history is kept' }),
          reachable: z.boolean().optional(),
          series: count('Recorded series (type, city, field)').nullable().optional(),
          bytes: count('Size of the history on disk (SQLite file, or the PostgreSQL tables)').nullable().optional(),
          buffered_points: count('Points kept in memory while the history store does not answer, written when it returns').optional(),
          dropped_points: count('Points dropped from that full buffer since start (HISTORY_BUFFER_POINTS)').optional(),
        })
        .meta({ description: 'The recorded history (GET /api/v1/cities/{city}/{type}/history)' }),
    }),
    meta: z.strictObject({ generated_at: time('When this answer was made'), source_status: okStatus(), demo: demoFlag() }),
  }),
);

export const CityListAnswer = lazy(() =>
  z.strictObject({
    data: z.array(CityEntry()),
    meta: z.strictObject({
      source_status: okStatus(),
      total: count('Cities in the register'),
      core: count('Cities with full coverage'),
      pagination: Pagination(),
      provenance: z.string().meta({ description: 'Where the register comes from' }),
    }),
  }),
);

export const CityAnswer = lazy(() =>
  z.strictObject({
    data: CityEntry(),
    meta: z.strictObject({
      source_status: okStatus(),
      city: slug(),
      canonical_path: z.string().meta({ description: 'Path with the canonical slug' }),
      resolved_from: z.string().optional().meta({ description: 'The slug as requested, when it was not canonical' }),
    }),
  }),
);

export const SourcesAnswer = lazy(() =>
  z.strictObject({
    data: z.array(
      z.strictObject({
        source: z.string().meta({ description: 'Source id' }),
        name: z.string(),
        enabled: z.boolean().meta({ description: 'Switched on and credentials set' }),
        toggle: z.boolean().meta({ description: 'Value of the <SOURCE>_ENABLED setting' }),
        credentials: z.enum(['none', 'configured', 'missing']),
        credential_variables: z.array(z.string()).meta({ description: 'Environment variables holding its credentials' }),
        missing_credentials: z.array(z.string()),
        registration: z
          .strictObject({
            url: z.string().meta({ description: 'Where an account or key is requested' }),
            free: z.union([z.boolean(), z.literal('by agreement')]),
            note: z.string(),
          })
          .nullable(),
        unlocks: z.array(z.string()).meta({ description: 'Data types it answers' }),
        variant_for: z.array(
          z.union([z.strictObject({ type: z.string(), cities: z.array(z.string()) }), z.strictObject({ type: z.string(), values: z.array(z.string()) })]),
        ),
        fallback_for: z.array(z.string()).meta({ description: 'Data types it answers while their own source is unusable (a stand-in)' }),
        part_of: z.array(z.string()).meta({ description: 'Data types that read a part of their answer from it' }),
        breaker_state: breakerState().meta({ description: 'The worst of its hosts’ breakers: OPEN while any host is open' }),
        breakers: z
          .array(
            z.strictObject({
              host: z.string().meta({ description: 'Upstream host the breaker guards (an address or internal name: host N)' }),
              state: breakerState(),
              opened_at: time('When it last opened').nullable(),
              failures: count('Consecutive upstream failures since the last success'),
            }),
          )
          .meta({ description: 'One breaker per upstream host the source calls' }),
        breaker: z.strictObject({ threshold: count('Failures that open the breaker'), cooldown_seconds: count('Seconds before a trial call') }),
        license: z.string(),
        license_url: z.string(),
        tier: tier(),
        attribution: z.string(),
        last_success: time('Last successful upstream call').nullable(),
        last_failure: time('Last failed upstream call').nullable(),
        last_error: z.string().nullable(),
        format_drift: z
          .strictObject({
            first_error: z.string().meta({ description: 'The first failure since the source started drifting' }),
            since: time('When it started'),
            last_seen: time('The latest failure of this kind'),
            count: count('Fetches that failed this way since then'),
            types: z.array(z.string()).meta({ description: 'Data types whose latest fetch failed this way' }),
          })
          .nullable()
          .meta({ description: 'Answers that no longer match the record schema or parser (null: none)' }),
        verified_on: z
          .enum(['recording', 'documentation'])
          .meta({ description: "What its adapter's tests read: real recorded upstream answers, or only payloads built from the documentation" }),
        recordings: z
          .array(
            z.strictObject({
              file: z.string().meta({ description: 'Fixture file (in the repository under test/fixtures/)' }),
              source: z.string().meta({ description: 'Where it was recorded or copied from (github:owner/repo path, or a URL)' }),
              recorded: z.string().meta({ description: 'When it was recorded, as far as known' }),
              commit: z.string().nullable().meta({ description: 'Commit of the repository it was copied from' }),
              note: z.string().nullable().meta({
                description: 'What it shows when not this source for a register city (another place, an excerpt)',
              }),
            }),
          )
          .meta({ description: 'The recorded answers its adapter is tested on (empty: documentation only)' }),
        upstream_check: z
          .strictObject({
            checked_at: time("Time of the operator's last npm run check-upstreams"),
            verdict: z.enum(['parse_error', 'http_error', 'ok', 'no_data', 'disabled']).meta({ description: 'The worst verdict of its checks that matters' }),
            checks: count('Checks of this source in that run'),
            counts: z.record(z.string(), z.number().int()).meta({ description: 'Checks per verdict' }),
          })
          .nullable()
          .meta({
            description: 'Its verdict in the last check-upstreams run (null: none recorded; CHECK_UPSTREAMS_RESULT_PATH)',
          }),
      }),
    ),
    meta: z.strictObject({
      source_status: okStatus(),
      total: count('Sources'),
      page: z.number().int().nullable(),
      limit: z.number().int().nullable(),
      offset: count('Items skipped'),
      sort: z.enum(['source', 'enabled', 'license']).nullable(),
      order: z.enum(['asc', 'desc']),
      pagination: Pagination(),
    }),
  }),
);

const Highlight = () =>
  z.strictObject({
    type: z.string().nullable().meta({ description: 'The data type shown (null when the catalog has none for this slot)' }),
    source_status: itemStatus(['ok', 'no_data', 'disabled', 'error'], 'What the data type answered'),
    data: anyData("The data type's data (see its operation), null unless ok"),
    cache_status: cacheStatus(),
    error: z.string().optional().meta({ description: 'Problem code or timeout, when it failed' }),
  });

export const OverviewAnswer = lazy(() =>
  z.strictObject({
    data: z.strictObject({
      city: z.strictObject({
        slug: slug(),
        name: z.string(),
        state: z.string(),
        location: z.strictObject({ lat: z.number(), lon: z.number() }),
        inhabitants: z.strictObject({ count: count('Inhabitants'), reference_date: z.iso.date() }),
      }),
      data_types: z.array(
        z.strictObject({
          type: z.string(),
          label: z.string(),
          label_en: z.string(),
          tool: z.string().meta({ description: 'MCP tool that reaches it' }),
          path: z.string().meta({ description: 'Request path for this city' }),
          available: z.boolean().meta({ description: 'Configured: covered in this city and its source usable with the settings (see state)' }),
          state: z
            .enum(['answering', 'failing', 'untried', 'disabled', 'not_covered'])
            .meta({ description: 'answering: its source’s latest call succeeded; failing: it failed, breaker open or drift; untried: not asked since start' }),
          covered_cities: z.array(z.string()).optional().meta({ description: 'Where it is available, when not here' }),
          note: z.string().optional(),
        }),
      ),
      highlights: z.strictObject({ weather: Highlight(), air: Highlight() }),
      links: z
        .strictObject({
          explorer: z.string().meta({ description: 'The explorer page of this city: map, current values, history charts, request builder' }),
          coverage: z.string().meta({ description: 'The coverage page of this city: what each data type answers now' }),
        })
        .meta({ description: 'Pages about this city' }),
      summary: z.strictObject({
        data_types_total: count('Per-city data types'),
        data_types_available: count('Of those, configured here (same as data_types_configured)'),
        data_types_configured: count('Of those, covered here with a usable source'),
        data_types_answering: count('Of the configured, answering now'),
        data_types_failing: count('Of the configured, failing now'),
        data_types_untried: count('Of the configured, not asked since start'),
        cities_total: count('Cities in the register'),
        headline: z.string(),
        catalog: z.string(),
        note: z.string(),
      }),
    }),
    meta: z.strictObject({
      source_status: aggregateStatus('ok unless every configured data type is failing and no highlight answered (then error)'),
      city: slug(),
      generated_at: time('When this answer was made'),
      demo: demoFlag(),
    }),
    attribution: z.null(),
  }),
);

export const CompareAnswer = lazy(() =>
  z.strictObject({
    data: z.array(
      z.strictObject({
        city: z.string().meta({ description: 'Canonical slug, or the name as given when it names no city' }),
        data: anyData("The resource's data for this city (or its summary), null unless ok"),
        source_status: itemStatus(['ok', 'no_data', 'disabled', 'error', 'not_found'], "This city's outcome"),
        value: z.number().nullable().optional().meta({ description: 'The value sort=value orders by (resources that declare one)' }),
        as_of: time('With at: the time of the recorded value answering').optional(),
        cache_status: cacheStatus(),
        attribution: Attribution().nullable().optional(),
        note: z.string().optional(),
      }),
    ),
    meta: z.strictObject({
      source_status: aggregateStatus('ok when at least one city answered ok; else error when a city failed; else no_data'),
      resource: z.string(),
      type: z.string().meta({ description: 'The data type compared' }),
      total: count('Cities asked for'),
      max_cities: count('Most cities one call takes (MAX_CITIES)'),
      statuses: z.record(z.string(), z.number().int()).meta({ description: 'Items per source_status' }),
      sort: z.enum(['city', 'source_status', 'value']).nullable(),
      order: z.enum(['asc', 'desc']),
      value_field: z.string().optional().meta({ description: 'Dotted path of the compared value in data' }),
      at: time('The past moment answered from history (compare?at=)').optional(),
      pagination: Pagination(),
      demo: demoFlag(),
    }),
  }),
);

export const ProblemsAnswer = lazy(() =>
  z.strictObject({
    data: z.array(
      z.strictObject({
        code: z.string(),
        status: z.number().int().meta({ description: 'HTTP status' }),
        title: z.string(),
        type: z.string().meta({ description: 'The problem type URI' }),
      }),
    ),
    meta: z.strictObject({ source_status: okStatus(), total: count('Problem codes') }),
  }),
);

const sourceState = () => sourceStateOf('State of the answering source: answering, failing, untried (not asked since start) or disabled');

export const CoverageAnswer = lazy(() =>
  z.strictObject({
    data: z.array(
      z.strictObject({
        type: z.string(),
        label: z.string(),
        label_en: z.string(),
        group: z.string(),
        path: z.string(),
        tool: z.string(),
        source: z.string().meta({ description: 'Main source id' }),
        tier: tier(),
        enabled: z.boolean(),
        source_state: sourceState(),
        answered_by: z.string().nullable().meta({ description: 'Source that answers now (the stand-in when the main one is unusable)' }),
        variants: z.array(
          z.strictObject({
            cities: z.array(z.string()),
            source: z.string(),
            tier: tier(),
            source_state: sourceState(),
            answered_by: z.string().nullable(),
          }),
        ),
        partial: z.boolean().meta({ description: 'Covers only some cities' }),
        covered_cities: z.array(z.string()),
        covered_count: count('Cities covered'),
        note: z.string().nullable(),
        demo_recorded_city: z.string().nullable().optional().meta({ description: 'Demo mode: the city whose recordings the demo serves for this type' }),
      }),
    ),
    meta: z.strictObject({
      source_status: aggregateStatus('ok unless every configured cell’s source is failing (then error)'),
      data_types: count('Per-city data types'),
      catalog: z.string(),
      partial: count('Data types covering only some cities'),
      cities_total: count('Cities in the register'),
      cells: z.strictObject({
        total: count('Cities times data types'),
        configured: count('Cells whose source is usable with the settings (answering, untried, failing, no_recording)'),
        answering: count('Cells whose source’s latest call succeeded'),
        untried: count('Cells whose source was not asked since start'),
        failing: count('Cells whose source failed its latest call, has its breaker open or drifts'),
        disabled: count('Cells whose source is disabled'),
        not_covered: count('Cells outside the data type’s coverage'),
        no_recording: count('Demo mode: cells of a city the demo has no recording of').optional(),
      }),
      demo: demoFlag(),
    }),
    attribution: z.null(),
  }),
);

export const CityCoverageAnswer = lazy(() =>
  z.strictObject({
    data: z.strictObject({
      city: z.strictObject({ slug: slug(), name: z.string() }),
      items: z.array(
        z.strictObject({
          type: z.string(),
          label_en: z.string(),
          group: z.string(),
          path: z.string().meta({ description: 'The request for this city' }),
          cell: z.enum(['answering', 'untried', 'failing', 'disabled', 'not_covered', 'no_recording']),
          source: z.string(),
          source_status: itemStatus(
            ['ok', 'no_data', 'disabled', 'not_covered', 'error', 'not_checked'],
            'What the request meets now, from the cache (not_checked: nothing cached yet, or see note)',
          ),
          cache_status: cacheStatus(),
          fetched_at: time('When the cached answer was fetched').optional(),
          note: z.string().optional(),
        }),
      ),
    }),
    meta: z.strictObject({
      source_status: okStatus(),
      city: slug(),
      statuses: z.record(z.string(), z.number().int()).meta({ description: 'Items per source_status' }),
      generated_at: time('When this answer was made'),
      demo: demoFlag(),
    }),
    attribution: z.null(),
  }),
);

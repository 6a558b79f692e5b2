/**
 * The layer rule of docs/architecture.md, checked in `npm test`:
 *   app/server -> routes, mcp -> services, streams -> history, pipeline -> catalog -> jobs -> sources -> upstream, store, http
 * (jobs sit below the catalog, which names a stored type's job as a value; they reach the app through
 * core/job.ts's JobHost)
 * and everything may use the base, which imports nothing above it and is ordered itself:
 *   cities/ -> core/ (the contract, config.ts among it) -> metrics.ts (imports nothing of src/).
 * Type-only imports count: a cycle through types is still a cycle of understanding.
 */
const LAYERS = [
  // [name, path regex, may import (besides itself and the base)]
  ['app', '^src/(app|server|local-ingress|startup|stdio|gtfs-child)\\.ts$', ['routes', 'mcp', 'services', 'streams', 'history', 'jobs', 'pipeline', 'catalog', 'sources', 'upstream', 'store', 'http']],
  ['routes', '^src/routes/', ['services', 'streams', 'history', 'pipeline', 'catalog', 'jobs', 'sources', 'upstream', 'store', 'http']],
  ['mcp', '^src/mcp/', ['services', 'history', 'pipeline', 'catalog', 'jobs', 'sources', 'upstream', 'store', 'http']],
  ['services', '^src/services/', ['history', 'pipeline', 'catalog', 'jobs', 'sources', 'upstream', 'store', 'http']],
  // Server-Sent Events: beside the services, below the routes; runs data types through the pipeline.
  ['streams', '^src/streams/', ['pipeline', 'catalog', 'jobs', 'sources', 'upstream', 'store', 'http']],
  // The history (its stores, recorder and refresh jobs): fed by the pipeline through core/history-sink.ts's HistorySink, read by services.
  ['history', '^src/history/', ['store']],
  ['pipeline', '^src/pipeline/', ['catalog', 'jobs', 'sources', 'upstream', 'store', 'http']],
  ['catalog', '^src/catalog/', ['jobs', 'sources']],
  ['jobs', '^src/jobs/', ['sources', 'upstream', 'store', 'http']],
  ['sources', '^src/sources/', ['upstream', 'store', 'http']],
  ['upstream', '^src/upstream/', []],
  ['store', '^src/store/', []],
  ['http', '^src/http/', []],
];
const BASE = '^src/(core/|cities/|metrics\\.ts$|web/wire\\.ts$)';
const ALL = LAYERS.map(([, re]) => re);

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No cycles between modules, type imports included.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'base-imports-nothing-above',
      severity: 'error',
      comment: 'core/, cities/ and metrics.ts are the base every layer may use; they import no layer.',
      from: { path: BASE },
      to: { path: ALL },
    },
    {
      name: 'base-core-below-cities',
      severity: 'error',
      comment: 'core/ (the contract and config) names a city by core/city.ts, never through the register above it.',
      from: { path: '^src/core/' },
      to: { path: '^src/cities/' },
    },
    {
      name: 'base-metrics-at-the-bottom',
      severity: 'error',
      comment: 'metrics.ts imports nothing of src/: core/ (JobHost) may name it.',
      from: { path: '^src/metrics\\.ts$' },
      to: { path: '^src/' },
    },
    {
      name: 'web-is-browser-code',
      severity: 'error',
      comment: 'src/web/ is bundled for the browser (esbuild): it imports only src/web/ and npm packages, and nothing on the server imports it.',
      from: { path: '^src/web/' },
      to: { path: '^src/', pathNot: '^src/web/' },
    },
    {
      name: 'server-never-imports-web',
      severity: 'error',
      comment:
        'The server reaches src/web/ only as files for esbuild (http/web-assets.ts), never as an import; the one exception is the types of the JSON it embeds for the browser (src/web/wire.ts, type-only).',
      from: { path: '^src/', pathNot: '^src/web/' },
      to: { path: '^src/web/', pathNot: '^src/web/wire\\.ts$' },
    },
    {
      name: 'web-wire-is-types-only',
      severity: 'error',
      comment: 'The server imports src/web/wire.ts for its types only, so no browser code runs on the server.',
      from: { path: '^src/', pathNot: '^src/web/' },
      to: { path: '^src/web/wire\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    ...LAYERS.map(([name, re, allowed]) => ({
      name: `layer-${name}`,
      severity: 'error',
      comment: `${name} may import only: ${allowed.join(', ') || 'nothing'} (plus the base: core, cities, metrics)`,
      from: { path: re },
      to: {
        path: '^src/',
        pathNot: [BASE, re, ...LAYERS.filter(([n]) => allowed.includes(n)).map(([, r]) => r)],
      },
    })),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(test|bench|scripts)/' },
  },
};

/**
 * The browser components of Stadtdaten, each with a small API over the service's own answers:
 * `renderMap(el, {boundary, layers})`, `renderChart(el, series, opts)` (with `seriesFromHistory`),
 * `renderValues(el, specs)`. The explorer page and the MCP Apps UIs are built from them.
 */
export { renderMap, type MapHandle, type MapLayerSpec, type MapOptions, type LayerState } from './map.ts';
export { renderChart, seriesFromHistory, type ChartHandle, type ChartOptions, type ChartSeries } from './chart.ts';
export { renderValues, type ValueField, type ValueSpec, type ValuesHandle } from './values.ts';
export type { Attribution, Envelope, Feature, FeatureCollection, HistoryAnswer, Problem } from './types.ts';

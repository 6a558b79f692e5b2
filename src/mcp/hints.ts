/**
 * Problems are written once, for REST, and their hints point to REST routes. A model calling
 * tools can follow only tool calls, so on MCP each REST pointer is told as the tool that answers
 * the same question. Whole phrases first (they read as sentences), then any route left.
 */
const PHRASES: [RegExp, string][] = [
  [/GET \/api\/v1\/cities lists all (\d+) canonical city slugs\./, 'Call find_city without query: it lists all $1 cities with their slugs.'],
  [/GET \/api\/v1\/cities lists (?:all canonical slugs|the city slugs)\./, 'Call find_city with the name, or without query for every city.'],
  [
    /Pass cities=berlin,hamburg \(comma-separated slugs; GET \/api\/v1\/cities lists them\)\./,
    'Pass cities, e.g. ["berlin", "hamburg"]; find_city lists the slugs.',
  ],
  [/GET \/api\/v1\/health and GET \/api\/v1\/sources show the state of every source\./, 'Call sources: it shows the state of every source.'],
  [/; GET \/api\/v1\/health shows the state of the store\./, '.'],
  [/GET \/api\/v1\/cities\/\{slug\}\/stations lists them/, 'transport with data_type "stations" lists them'],
  [/GET \/api\/v1 lists every data type(?: with an example request)?\./, 'Call city_overview: it names every data type of a city and its tool.'],
];

const ROUTES: [RegExp, string][] = [
  [/GET \/api\/v1\/cities\/[^\s/]+\/overview\b/g, 'city_overview'],
  [/GET \/api\/v1\/cities\b/g, 'find_city'],
  [/GET \/api\/v1\/(?:sources|health)\b/g, 'sources'],
  [/GET \/api\/v1\/compare\b/g, 'compare_cities'],
  [/GET \/api\/v1\/[^\s;,)]*/g, 'city_overview'],
];

/** A problem's hint as an MCP client can act on it: tool names where the REST hint names routes. */
export function toolHint(hint: string): string {
  let out = hint;
  for (const [pattern, replacement] of PHRASES) out = out.replace(pattern, replacement);
  for (const [pattern, tool] of ROUTES) out = out.replace(pattern, tool);
  return out;
}

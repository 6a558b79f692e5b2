import { CITIES } from '../cities/register.ts';
import { resolveCity } from '../cities/resolve.ts';
import { coveredCities, fillTemplate, routePath, toolOf } from '../core/data-type.ts';
import { forCity } from '../core/forms.ts';
import { ProblemError } from '../core/problem.ts';
import { orFallbackAfter } from '../core/limit.ts';
import { toBerlinIso } from '../core/time.ts';
import type { Envelope, ServiceContext } from './context.ts';
import { countStates, sourceStates, stateOfForm, type SourceState } from '../pipeline/source-state.ts';

type Highlight = { source_status: string; data: unknown; cache_status?: string; error?: string; type: string | null };

/** Everything available for one city, generated from the catalog, with time-capped live highlights. */
export async function cityOverview({ rt, pipeline }: ServiceContext, slug: string): Promise<Envelope> {
  const city = resolveCity(slug);
  const highlight = async (slot: 'weather' | 'air'): Promise<Highlight> => {
    const dt = rt.catalog.all.find((d) => d.highlight === slot);
    if (!dt) return { type: null, source_status: 'no_data', data: null };
    const run = pipeline.run(dt, city, {}, { noPaging: true }).then(
      (o): Highlight => ({
        type: dt.type,
        source_status: o.status === 'not_covered' ? 'no_data' : o.status,
        data: o.data(),
        ...(o.cacheStatus ? { cache_status: o.cacheStatus } : {}),
      }),
      (err): Highlight => ({ type: dt.type, source_status: 'error', data: null, error: err instanceof ProblemError ? err.code : 'failed' }),
    );
    return orFallbackAfter(run, rt.config.overviewBudgetMs, () => ({ type: dt.type, source_status: 'error', data: null, error: 'timeout' }));
  };
  const [weather, air] = await Promise.all([highlight('weather'), highlight('air')]);
  // The sources' states after the highlights asked theirs: what this answer saw is what it tells.
  const states = await sourceStates(rt);
  const dataTypes = rt.catalog.all
    .filter((dt) => dt.scope !== 'global')
    .map((dt) => {
      const cities = coveredCities(dt);
      const covered = !cities || cities.includes(city.slug);
      const form = forCity(dt, city.slug);
      const state = stateOfForm(rt, form, states);
      const item: Record<string, unknown> = {
        type: dt.type,
        label: dt.label,
        label_en: dt.label_en,
        tool: toolOf(dt),
        path: fillTemplate(routePath(dt), { city: city.slug }),
        // Configured: covered here and its source usable with the settings; `state` says whether it answers.
        available: covered && state !== 'disabled',
        state: covered ? state : 'not_covered',
      };
      if (!covered) {
        item.covered_cities = [...cities].sort();
        item.note = `${dt.label_en} is not available for ${city.name}${dt.coverage ? `: ${dt.coverage.note}` : '.'} Available in ${cities.length} of ${CITIES.length} cities.`;
      } else if (!rt.answering(form)) {
        item.note = `${form.source.name} is disabled on this server.`;
      }
      return item;
    });

  const available = dataTypes.filter((d) => d.available).length;
  const byState = countStates(dataTypes.filter((d) => d.available).map((d) => d.state as SourceState));
  const highlightsOk = [weather, air].some((h) => h.source_status === 'ok');
  const data = {
    city: {
      slug: city.slug,
      name: city.name,
      state: city.state,
      location: { lat: city.lat, lon: city.lon },
      inhabitants: { count: city.population, reference_date: city.population_date },
    },
    data_types: dataTypes,
    highlights: { weather, air },
    links: { explorer: `/explore/${city.slug}`, coverage: `/coverage/${city.slug}` },
    summary: {
      data_types_total: rt.catalog.counts.per_city,
      data_types_available: available,
      data_types_configured: available,
      data_types_answering: byState.answering,
      data_types_failing: byState.failing,
      data_types_untried: byState.untried,
      cities_total: CITIES.length,
      headline:
        `${city.name}: ${available} of ${rt.catalog.counts.per_city} per-city data types configured; ` +
        `${byState.answering} answering now, ${byState.failing} failing, ${byState.untried} not asked since start`,
      catalog: rt.catalog.counts.text,
      note: `Coverage differs by data type; not covered types name the cities that have them. Register of ${CITIES.length} cities, ${CITIES.filter((c) => c.core).length} with full coverage.`,
    },
  };
  // Nothing answering (every configured type failing and no highlight) is not an ok overview.
  const nothing = available > 0 && byState.failing === available && !highlightsOk;
  const meta: Record<string, unknown> = { source_status: nothing ? 'error' : 'ok', city: city.slug, generated_at: toBerlinIso(new Date()) };
  if (rt.config.demo) meta.demo = true;
  return { data, meta, attribution: null };
}

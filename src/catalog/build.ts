import { routePath, toolNamesOf, type AnsweringSource, type DataType } from '../core/data-type.ts';
import { jobsOf, sourcesOf } from '../core/forms.ts';
import type { JobHost, ScheduledJob } from '../core/job.ts';
import type { SourceDecl } from '../core/source.ts';
import { CITIES } from '../cities/register.ts';

/** The counts every surface shows (health, coverage, overview, MCP, README): computed here, once. */
export interface CatalogCounts {
  data_types: number;
  /** Answered per city (`/cities/{city}/...`, `/live/{city}/...`). */
  per_city: number;
  /** Not per city: per station (EVA number) or nationwide. */
  global: number;
  cities: number;
  /** MCP tools reaching them (group and own tools plus the fixed ones); does not grow with the catalog. */
  mcp_tools: number;
  /** One sentence, e.g. "39 data types: 37 per city, 2 per station or nationwide; 14 MCP tools". */
  text: string;
}

export interface Catalog {
  all: readonly DataType[];
  byType: ReadonlyMap<string, DataType>;
  byCompareResource: ReadonlyMap<string, DataType>;
  counts: CatalogCounts;
  /** Every source the data types read, in catalog order: what the settings, /api/v1/sources and the tests' fake upstream cover. */
  sources: readonly SourceDecl[];
  /** Every job that fills a stored type's store, with the types it feeds. */
  jobs: ReadonlyMap<ScheduledJob, readonly DataType[]>;
  /** The jobs to run: those writing what a listed source reads, while the settings leave some such source usable. */
  jobsFor(host: Pick<JobHost, 'sourceEnabled'>): ScheduledJob[];
}

export function buildCatalog(types: readonly DataType[]): Catalog {
  const byType = new Map<string, DataType>();
  const paths = new Set<string>();
  const byCompareResource = new Map<string, DataType>();
  for (const dt of types) {
    if (byType.has(dt.type)) throw new Error(`duplicate data type ${dt.type}`);
    const p = routePath(dt);
    if (paths.has(p)) throw new Error(`duplicate path ${p}`);
    byType.set(dt.type, dt);
    paths.add(p);
    if (dt.compare) byCompareResource.set(dt.compare.resource, dt);
  }
  const global = types.filter((dt) => dt.scope === 'global').length;
  const perCity = types.length - global;
  const tools = toolNamesOf(types).length;
  const counts: CatalogCounts = {
    data_types: types.length,
    per_city: perCity,
    global,
    cities: CITIES.length,
    mcp_tools: tools,
    text: `${types.length} data types: ${perCity} per city, ${global} per station or nationwide; ${tools} MCP tools`,
  };
  const sources = [...new Set(types.flatMap(sourcesOf))];
  const ids = new Map<string, SourceDecl>();
  for (const src of sources) {
    if (ids.has(src.id) && ids.get(src.id) !== src) throw new Error(`two sources declare the id ${src.id}`);
    ids.set(src.id, src);
  }
  const jobs = new Map<ScheduledJob, DataType[]>();
  for (const dt of types) {
    for (const s of answering(dt)) {
      const stored = (s.cache ?? dt.cache) === 'stored';
      if (stored && !s.jobs?.length) throw new Error(`${dt.type} reads stored data from ${s.source.id} but names no job that writes it`);
    }
    for (const job of jobsOf(dt)) jobs.set(job, [...(jobs.get(job) ?? []), dt]);
  }
  // A job runs while some listed source reading what it writes is usable.
  const writers = types.flatMap(answering);
  const jobsFor = (host: Pick<JobHost, 'sourceEnabled'>) =>
    [...jobs.keys()].filter((job) => writers.some((r) => r.jobs?.includes(job) && host.sourceEnabled(r.source)));
  return { all: types, byType, byCompareResource, counts, sources, jobs, jobsFor };
}

/** The sources of a type that answer with an adapter of their own (primaries, stand-ins, failovers). */
function answering(dt: DataType): AnsweringSource[] {
  return dt.sources.filter((s): s is AnsweringSource => s.role !== 'part');
}

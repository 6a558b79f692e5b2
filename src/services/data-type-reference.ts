import type { Catalog } from '../catalog/index.ts';
import { coveredCities, fullDescription, GROUP_LABELS, routePath, streamRetrySeconds, toolOf, type DataType } from '../core/data-type.ts';
import { roleText } from '../core/forms.ts';
import { formatsOf } from '../core/formats.ts';
import { esc, htmlPage } from '../http/html.ts';
import { provenanceOf } from '../sources/provenance.ts';

/**
 * The data-type reference (/docs/data-types): every data type with its whole description (how it
 * is read, per source and city), paths, MCP tool, sources and licences, coverage, cache windows,
 * formats and parameters, from the catalog like everything else. The OpenAPI operations carry the
 * leading sentences and point here, which keeps the document small; nothing is said only here
 * that a client needs to call the API (the schemas and parameters are in the document).
 */

const STYLE = `<style>
section{border-top:1px solid #ddd;padding-top:.4rem;margin-top:1.2rem}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem .8rem;margin:.4rem 0}dt{font-weight:600}dd{margin:0}
.toc{columns:3 16rem;font-size:.9rem}
</style>`;

const cacheText = (dt: DataType) =>
  dt.cache === 'stored' ? 'read from the store (written by a job)' : `fresh ${dt.cache.freshSeconds} s, then stale ${dt.cache.staleSeconds} s`;

/** What the source's adapter was verified on: the newest recording (date and origin) or the documentation. */
function verification(sourceId: string): string {
  const p = provenanceOf(sourceId);
  if (p.verified_on === 'documentation') return 'adapter verified on payloads built from the documentation (no recording found)';
  // Dates first, newest first; "~2020" or "not stated" only when nothing is dated.
  const key = (r: string) => (/^\d{4}/.test(r) ? r : '');
  const dated = [...p.recordings].sort((a, b) => key(b.recorded).localeCompare(key(a.recorded)))[0]!;
  const more = p.recordings.length > 1 ? ` and ${p.recordings.length - 1} more` : '';
  return `adapter verified on a recording of ${esc(dated.recorded)} (${esc(dated.source)})${more}`;
}

function sources(dt: DataType): string {
  return dt.sources
    .map((s) => {
      const role = roleText(dt, s);
      return `${esc(s.source.name)} (${esc(s.source.license)}, tier ${esc(s.source.tier)}, source <code>${esc(s.source.id)}</code>)${role ? ` ${esc(role)}` : ''}; ${verification(s.source.id)}`;
    })
    .join('<br>');
}

function section(dt: DataType): string {
  const covered = coveredCities(dt);
  const retry = streamRetrySeconds(dt);
  const rows: [string, string][] = [
    ['Path', `<code>${esc(routePath(dt))}</code>${(dt.aliases ?? []).map((a) => `<br>deprecated: <code>${esc(a)}</code>`).join('')}`],
    ['MCP tool', `<code>${esc(toolOf(dt))}</code> with data_type <code>${esc(dt.type)}</code>`],
    ['Sources', sources(dt)],
    ['Cities', covered ? `${covered.length}: ${esc([...covered].sort().join(', '))}` : dt.scope === 'global' ? 'not per city' : 'all 84'],
    ['Cache', esc(cacheText(dt))],
    ['Formats', esc(formatsOf(dt).join(', ')) + (retry === null ? '' : `; Server-Sent Events (retry ${retry} s)`)],
    ...(dt.params?.length
      ? ([['Parameters', dt.params.map((p) => `<code>${esc(p.name)}</code>${p.required ? ' (required)' : ''}: ${esc(p.description ?? '')}`).join('<br>')]] as [
          string,
          string,
        ][])
      : []),
  ];
  return `<section id="${esc(dt.type)}"><h2>${esc(dt.label_en)} (<code>${esc(dt.type)}</code>)</h2>
<p><strong>${esc(dt.summary)}.</strong> ${esc(fullDescription(dt))}</p>
<dl>${rows.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join('')}</dl></section>`;
}

/** The whole page; the catalog does not change while the process runs, so callers may keep it. */
export function dataTypeReferenceHtml(catalog: Catalog, demo: boolean): string {
  const all = [...catalog.all].sort((a, b) => a.group.localeCompare(b.group) || a.type.localeCompare(b.type));
  const toc = all.map((dt) => `<li><a href="#${esc(dt.type)}">${esc(dt.type)}</a> (${esc(GROUP_LABELS[dt.group])})</li>`).join('');
  return htmlPage({
    title: 'Stadtdaten: data types',
    demo,
    head: STYLE,
    body: `<h1>Data types</h1>
<p>${all.length} data types, each one REST path and one data type of an MCP tool. How each is read, from which sources, where and how fresh. Field schemas and example answers: <a href="/docs">API docs</a> (OpenAPI). Every type of a city on a map, as values and charts: <a href="/explore">Explorer</a>.</p>
<ul class="toc">${toc}</ul>
${all.map(section).join('\n')}`,
  });
}

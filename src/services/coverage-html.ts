import { CITIES } from '../cities/register.ts';
import { esc, htmlPage } from '../http/html.ts';
import { GROUP_LABELS } from '../core/data-type.ts';
import { cellOf, cityCoverage, coverageRows, summary, type CellState } from './coverage.ts';
import type { ServiceContext } from './context.ts';

const CELL_TEXT: Record<CellState, [symbol: string, title: string, cls: string]> = {
  answering: ['●', 'configured and answering: its latest call succeeded', 'a'],
  untried: ['◐', 'configured, not asked since start', 'u'],
  failing: ['!', 'configured but failing: latest call failed, breaker open or format drift', 'o'],
  disabled: ['✕', 'disabled: credentials missing or switched off', 'd'],
  not_covered: ['–', 'not covered in this city', 'n'],
  no_recording: ['○', "demo: recorded for the type's example city only; here it may answer no_data", 'm'],
};

/** The cells a request can get an answer from (configured: answering, untried or failing). */
const CONFIGURED: readonly CellState[] = ['answering', 'untried', 'failing', 'no_recording'];

/**
 * The matrix is 84 cities x ~100 data types: cells are as small as markup gets (a class and a
 * symbol), the city and type appear once each in the sticky column and header, and styles live
 * in one sheet. Without JavaScript everything works as links and a GET form (topic switch on the
 * server); the script only filters and sorts rows in place.
 */
const STYLE = `<style>
main{max-width:none}
.wrap{overflow:auto;max-height:calc(100vh - 2rem);border:1px solid #ccc}
#matrix{border-collapse:separate;border-spacing:0;font-size:.85rem}
#matrix td,#matrix th{border:0;border-right:1px solid #ddd;border-bottom:1px solid #ddd;padding:.15rem .3rem}
#matrix thead th{position:sticky;background:#f4f4f6;z-index:2}
#matrix thead tr:first-child th{top:0;line-height:1.4rem;padding-top:0;padding-bottom:0;white-space:nowrap}
#matrix thead tr:nth-child(2) th{top:calc(1.4rem + 1px)}
#matrix thead th.c{left:0;z-index:4}
#matrix th.c,#matrix tbody th{min-width:11rem;max-width:11rem;overflow:hidden;text-overflow:ellipsis}
#matrix tbody th{position:sticky;left:0;background:#fff;z-index:1;white-space:nowrap;text-align:left}
#matrix th.g span{position:sticky;left:12rem;padding:0 .3rem}
#matrix th.t{writing-mode:vertical-rl;transform:rotate(180deg);font:400 .75rem ui-monospace,monospace;padding:.3rem .1rem;vertical-align:bottom}
#matrix td{text-align:center;min-width:1.1em}#matrix td.r{text-align:right}
.a{background:#d9f2dc}.n{background:#eee;color:#777}.d{background:#f9d5d3}.o{background:#f5a9a3}.u{background:#eef6ef}.m{background:#eef5ee;color:#6a8}
#matrix th.g:nth-child(even){background:#e6e6ec}
th[data-sort]{cursor:pointer;text-decoration:underline dotted}
form label{margin-right:1rem}#topics a{margin-right:.6rem;white-space:nowrap}#topics a[aria-current]{font-weight:700;color:inherit}
</style>`;

/** Filtering by name and gaps and sorting by column, in place; the topic switch needs no script (links and a GET form). */
const SCRIPT = `(function(){
var table=document.getElementById('matrix'),body=table.tBodies[0],q=document.getElementById('q'),only=document.getElementById('only'),topic=document.getElementById('topic');
function apply(){var t=q.value.trim().toLowerCase(),n=0;
for(var r of body.rows){var show=!t||r.dataset.name.indexOf(t)>=0||r.dataset.slug.indexOf(t)>=0;if(show&&only.checked)show=Number(r.dataset.missing)>0;r.hidden=!show;if(show)n++;}
document.getElementById('shown').textContent=n;}
function sortBy(key,num){var dir=table.dataset.sort===key&&table.dataset.dir==='asc'?'desc':'asc';table.dataset.sort=key;table.dataset.dir=dir;
var rows=Array.prototype.slice.call(body.rows);rows.sort(function(a,b){var x=a.dataset[key],y=b.dataset[key];var c=num?Number(x)-Number(y):x.localeCompare(y,'de');return dir==='asc'?c:-c;});
rows.forEach(function(r){body.appendChild(r);});}
for(var h of table.querySelectorAll('th[data-sort]'))h.addEventListener('click',function(e){var th=e.currentTarget;sortBy(th.dataset.sort,th.dataset.num==='1');});
topic.addEventListener('change',function(){topic.form.submit();});
body.addEventListener('click',function(e){var td=e.target.closest('td:not(.r)');if(!td)return;var i=Array.prototype.indexOf.call(td.parentNode.children,td)-3,t=table.tHead.rows[1].cells[i];if(t)location.href='/explore/'+td.parentNode.dataset.slug+'?b.type='+encodeURIComponent(t.textContent);});
q.addEventListener('input',apply);only.addEventListener('change',apply);apply();})();`;

/** The topic key of a group label (the `topic` query value), e.g. `environment`. */
function topicOf(label: string): string {
  return (Object.entries(GROUP_LABELS).find(([, l]) => l === label)?.[0] ?? label) as string;
}

/**
 * `/coverage`: cities x data types, grouped by topic, each cell's state on this server now;
 * `?topic=<key>` shows one topic's columns (an unknown key shows all).
 */
export async function coverageHtml(ctx: Pick<ServiceContext, 'rt'>, topic?: string): Promise<string> {
  const all = await coverageRows(ctx);
  const meta = summary(all, ctx);
  const topics = [...new Set(all.map((t) => t.group))].map((label) => ({ key: topicOf(label), label }));
  const current = topics.find((t) => t.key === topic) ?? null;
  const types = current ? all.filter((t) => t.group === current.label) : all;
  const groups: { name: string; count: number }[] = [];
  for (const t of types) {
    const last = groups.at(-1);
    if (last?.name === t.group) last.count++;
    else groups.push({ name: t.group, count: 1 });
  }
  // The label sticks next to the city column while its group's columns scroll by.
  const head1 = groups.map((g) => `<th colspan="${g.count}" class="g"><span>${esc(g.name)}</span></th>`).join('');
  const head2 = types.map((t) => `<th class="t" title="${esc(`${t.label_en} (${t.path})${t.note ? `: ${t.note}` : ''}`)}">${esc(t.type)}</th>`).join('');
  const rows = CITIES.map((c) => {
    const cells = types.map((t) => cellOf(t, c.slug));
    const available = all.filter((t) => CONFIGURED.includes(cellOf(t, c.slug))).length;
    const tds = cells.map((s) => `<td class=${CELL_TEXT[s][2]}>${CELL_TEXT[s][0]}</td>`).join('');
    return `<tr data-slug="${esc(c.slug)}" data-name="${esc(c.name.toLowerCase())}" data-population="${c.population}" data-available="${available}" data-missing="${all.length - available}"><th><a href="/coverage/${esc(c.slug)}">${esc(c.name)}</a> <a href="/explore/${esc(c.slug)}" title="Explorer">⌖</a></th><td class=r>${c.population.toLocaleString('en')}</td><td class=r>${available}</td>${tds}</tr>`;
  }).join('\n');
  const legend = (Object.keys(CELL_TEXT) as CellState[])
    .filter((s) => meta.cells[s] !== undefined)
    .map((s) => `<span class="${CELL_TEXT[s][2]}" data-state="${s}">${CELL_TEXT[s][0]}</span> ${esc(CELL_TEXT[s][1])} (${meta.cells[s]})`)
    .join(' · ');
  const topicLinks = [{ key: '', label: 'All topics' }, ...topics]
    .map((t) => {
      const here = (current?.key ?? '') === t.key;
      return `<a href="/coverage${t.key ? `?topic=${encodeURIComponent(t.key)}` : ''}"${here ? ' aria-current="page"' : ''}>${esc(t.label)}</a>`;
    })
    .join(' ');
  const options = topics.map((t) => `<option value="${esc(t.key)}"${t.key === current?.key ? ' selected' : ''}>${esc(t.label)}</option>`).join('');
  const body = `<h1>Coverage</h1>
<p>${esc(meta.catalog)}. The matrix shows, for each of the ${meta.cities_total} cities and ${meta.data_types} per-city data types, what a request meets on this server now; ${meta.partial} data types cover only some cities (those answer <code>not_covered</code> with <code>meta.covered_cities</code> elsewhere). Click a city for what each data type answers there now (from the cache; no page here fetches anything); hover a column for its data type. Machine-readable: <a href="/api/v1/coverage">/api/v1/coverage</a>.</p>
<p id="answering">${meta.cells.configured} cells are configured on this server (their source is usable with its settings): ${meta.cells.answering} answering now, ${meta.cells.failing} failing, ${meta.cells.untried} not asked since start${meta.cells.no_recording ? `, ${meta.cells.no_recording} without a demo recording` : ''}; ${meta.cells.disabled} disabled, ${meta.cells.not_covered} not covered.</p>
<p id="legend">${legend}</p>
<p id="topics">Topic: ${topicLinks}</p>
<form method="get" action="/coverage"><label>Topic <select id="topic" name="topic"><option value="">all topics</option>${options}</select></label><noscript><button>Show</button></noscript>
<label>City <input id="q" type="search" placeholder="name or slug"></label>
<label><input id="only" type="checkbox"> only cities with gaps</label> · <span id="shown">${CITIES.length}</span> of ${CITIES.length} cities shown</form>
<div class="wrap"><table id="matrix" data-configured-cells="${meta.cells.configured}" data-answering-cells="${meta.cells.answering}" data-topic="${esc(current?.key ?? '')}">
<thead><tr><th rowspan="2" class="c" data-sort="name">City</th><th rowspan="2" data-sort="population" data-num="1">Population</th><th rowspan="2" data-sort="available" data-num="1" title="Data types configured here (all topics)">Conf.</th>${head1}</tr>
<tr>${head2}</tr></thead>
<tbody>
${rows}
</tbody></table></div>
<script>${SCRIPT}</script>`;
  return htmlPage({ title: 'Stadtdaten coverage', body, demo: ctx.rt.config.demo, head: STYLE });
}

/** `/coverage/{city}`: every data type of one city with its link and what its request meets now (from the cache; fetches nothing). */
export async function cityCoverageHtml(ctx: ServiceContext, raw: string): Promise<string> {
  const { data, meta } = await cityCoverage(ctx, raw);
  const rows = data.items
    .map(
      (i) =>
        `<tr class="${esc(i.cell)}" data-type="${esc(i.type)}" data-status="${esc(i.source_status)}"><td>${esc(i.group)}</td><td><a href="${esc(i.path)}">${esc(i.label_en)}</a><br><code>${esc(i.path)}</code></td><td>${esc(i.source)}</td><td class="${esc(i.source_status)}"><strong>${esc(i.source_status)}</strong>${i.cache_status ? ` <small>${esc(i.cache_status)}</small>` : ''}${i.fetched_at ? `<br><small>fetched ${esc(i.fetched_at)}</small>` : ''}${i.note ? `<br><small>${esc(i.note)}</small>` : ''}</td></tr>`,
    )
    .join('\n');
  const statuses = Object.entries(meta.statuses as Record<string, number>)
    .map(([s, n]) => `${esc(s)}: ${n}`)
    .join(' · ');
  const body = `<h1>Coverage: ${esc(data.city.name)}</h1>
<p><a href="/coverage">All cities</a> · <a href="/explore/${esc(data.city.slug)}">explorer</a> · <a href="/api/v1/cities/${esc(data.city.slug)}/overview">overview (JSON)</a> · <a href="/api/v1/coverage/${esc(data.city.slug)}">this page as JSON</a></p>
<p>What a request for each data type meets on this server now, read from the cache and the sources' breakers: this page fetches nothing. <code>not_checked</code> with <em>not fetched yet</em> means nothing is cached for it yet; its link fetches it.</p>
<p id="statuses">${statuses}</p>
<table id="city"><thead><tr><th>Topic</th><th>Data type</th><th>Source</th><th>source_status now</th></tr></thead><tbody>
${rows}
</tbody></table>`;
  return htmlPage({ title: `Stadtdaten coverage: ${data.city.name}`, body, demo: ctx.rt.config.demo });
}

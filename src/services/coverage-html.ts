import { CITIES } from '../cities/register.ts';
import { esc, htmlPage } from '../http/html.ts';
import { cellOf, cityCoverage, coverageRows, summary, type CellState } from './coverage.ts';
import type { ServiceContext } from './context.ts';

const CELL_TEXT: Record<CellState, [symbol: string, title: string]> = {
  available: ['●', 'available'],
  not_covered: ['–', 'not covered in this city'],
  disabled: ['✕', 'disabled: credentials missing or switched off'],
  breaker_open: ['!', 'upstream breaker open'],
  no_recording: ['○', "demo: recorded for the type's example city only; here it may answer no_data"],
};

/**
 * Sorting and filtering in the page itself (no framework, no CDN): rows carry data-* values,
 * columns carry their group; the script only hides rows/columns and reorders rows.
 */
const SCRIPT = `(function(){
var table=document.getElementById('matrix'),body=table.tBodies[0],q=document.getElementById('q'),grp=document.getElementById('group'),only=document.getElementById('only');
function apply(){var t=q.value.trim().toLowerCase(),g=grp.value,n=0;
for(var r of body.rows){var show=!t||r.dataset.name.indexOf(t)>=0||r.dataset.slug.indexOf(t)>=0;if(show&&only.checked)show=Number(r.dataset.missing)>0;r.hidden=!show;if(show)n++;}
for(var c of table.querySelectorAll('[data-group]'))c.hidden=!!g&&c.dataset.group!==g;
document.getElementById('shown').textContent=n;}
function sortBy(key,num){var dir=table.dataset.sort===key&&table.dataset.dir==='asc'?'desc':'asc';table.dataset.sort=key;table.dataset.dir=dir;
var rows=Array.prototype.slice.call(body.rows);rows.sort(function(a,b){var x=a.dataset[key],y=b.dataset[key];var c=num?Number(x)-Number(y):x.localeCompare(y,'de');return dir==='asc'?c:-c;});
rows.forEach(function(r){body.appendChild(r);});}
for(var h of table.querySelectorAll('th[data-sort]'))h.addEventListener('click',function(e){var th=e.currentTarget;sortBy(th.dataset.sort,th.dataset.num==='1');});
q.addEventListener('input',apply);grp.addEventListener('change',apply);only.addEventListener('change',apply);apply();})();`;

/** `/coverage`: cities x data types, grouped by topic, each cell's state on this server now. */
export async function coverageHtml(ctx: Pick<ServiceContext, 'rt'>): Promise<string> {
  const types = await coverageRows(ctx);
  const meta = summary(types, ctx);
  const groups: { name: string; count: number }[] = [];
  for (const t of types) {
    const last = groups.at(-1);
    if (last?.name === t.group) last.count++;
    else groups.push({ name: t.group, count: 1 });
  }
  const head1 = groups.map((g) => `<th colspan="${g.count}" data-group="${esc(g.name)}">${esc(g.name)}</th>`).join('');
  const head2 = types
    .map(
      (t) =>
        `<th data-group="${esc(t.group)}" title="${esc(`${t.label_en} (${t.path})${t.note ? `: ${t.note}` : ''}`)}" class="type"><code>${esc(t.type)}</code></th>`,
    )
    .join('');
  const rows = CITIES.map((c) => {
    const cells = types.map((t) => cellOf(t, c.slug));
    const available = cells.filter((x) => x === 'available').length;
    const tds = cells
      .map((s, i) => {
        const t = types[i]!;
        const [sym, title] = CELL_TEXT[s];
        return `<td class="cell ${s}" data-group="${esc(t.group)}" data-state="${s}" title="${esc(`${c.name} / ${t.label_en}: ${title}`)}">${sym}</td>`;
      })
      .join('');
    return `<tr data-slug="${esc(c.slug)}" data-name="${esc(c.name.toLowerCase())}" data-population="${c.population}" data-available="${available}" data-missing="${cells.length - available}"><th scope="row"><a href="/coverage/${esc(c.slug)}">${esc(c.name)}</a></th><td class="num">${c.population.toLocaleString('en')}</td><td class="num">${available}</td>${tds}</tr>`;
  }).join('\n');
  const legend = (Object.keys(CELL_TEXT) as CellState[])
    .filter((s) => meta.cells[s] !== undefined)
    .map((s) => `<span class="cell ${s}">${CELL_TEXT[s][0]}</span> ${esc(CELL_TEXT[s][1])} (${meta.cells[s]})`)
    .join(' · ');
  const groupOptions = groups.map((g) => `<option>${esc(g.name)}</option>`).join('');
  const body = `<h1>Coverage</h1>
<p>${esc(meta.catalog)}. The matrix shows, for each of the ${meta.cities_total} cities and ${meta.data_types} per-city data types, what a request meets on this server now; ${meta.partial} data types cover only some cities (those answer <code>not_covered</code> with <code>meta.covered_cities</code> elsewhere). Click a city for its live status per data type. Machine-readable: <a href="/api/v1/coverage">/api/v1/coverage</a>.</p>
<p id="legend">${legend}</p>
<form onsubmit="return false"><label>City <input id="q" type="search" placeholder="name or slug"></label>
<label>Topic <select id="group"><option value="">all topics</option>${groupOptions}</select></label>
<label><input id="only" type="checkbox"> only cities with gaps</label> · <span id="shown">${CITIES.length}</span> of ${CITIES.length} cities shown</form>
<div style="overflow:auto"><table id="matrix" data-available-cells="${meta.cells.available}">
<thead><tr><th rowspan="2" data-sort="name" class="sortable">City</th><th rowspan="2" data-sort="population" data-num="1" class="sortable">Population</th><th rowspan="2" data-sort="available" data-num="1" class="sortable">Available</th>${head1}</tr>
<tr>${head2}</tr></thead>
<tbody>
${rows}
</tbody></table></div>
<script>${SCRIPT}</script>`;
  return htmlPage({
    title: 'Stadtdaten coverage',
    body,
    demo: ctx.rt.config.demo,
    head: '<style>.cell{text-align:center;min-width:1.3em}.num{text-align:right}th.type code{writing-mode:vertical-rl;transform:rotate(180deg);font-size:.75em}th.sortable{cursor:pointer;text-decoration:underline dotted}form label{margin-right:1rem}</style>',
  });
}

/** `/coverage/{slug}`: every data type of one city with its link and current source_status. */
export async function cityCoverageHtml(ctx: ServiceContext, raw: string): Promise<string> {
  const { data, meta } = await cityCoverage(ctx, raw);
  const rows = data.items
    .map(
      (i) =>
        `<tr class="${esc(i.cell)}" data-type="${esc(i.type)}" data-status="${esc(i.source_status)}"><td>${esc(i.group)}</td><td><a href="${esc(i.path)}">${esc(i.label_en)}</a><br><code>${esc(i.path)}</code></td><td>${esc(i.source)}</td><td class="${esc(i.source_status)}"><strong>${esc(i.source_status)}</strong>${i.cache_status ? ` <small>${esc(i.cache_status)}</small>` : ''}${i.note ? `<br><small>${esc(i.note)}</small>` : ''}</td></tr>`,
    )
    .join('\n');
  const statuses = Object.entries(meta.statuses as Record<string, number>)
    .map(([s, n]) => `${esc(s)}: ${n}`)
    .join(' · ');
  const body = `<h1>Coverage: ${esc(data.city.name)}</h1>
<p><a href="/coverage">All cities</a> · <a href="/api/v1/cities/${esc(data.city.slug)}/overview">overview (JSON)</a> · <a href="/api/v1/coverage/${esc(data.city.slug)}">this page as JSON</a></p>
<p id="statuses">${statuses}</p>
<table id="city"><thead><tr><th>Topic</th><th>Data type</th><th>Source</th><th>source_status now</th></tr></thead><tbody>
${rows}
</tbody></table>`;
  return htmlPage({ title: `Stadtdaten coverage: ${data.city.name}`, body, demo: ctx.rt.config.demo });
}

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Browser, Frame, Page } from 'puppeteer-core';
import { startDemo, type Demo } from '../scripts/demo.ts';
import { CATALOG } from '../src/catalog/index.ts';
import { MAX_APP_HTML_BYTES } from '../src/mcp/app-html.ts';
import { APP_MIME_TYPE, APP_VIEWS, appUri, mapped, viewOfTool } from '../src/mcp/apps.ts';
import { toolTable } from '../src/mcp/tools.ts';
import { fakeEnv, startApp } from './helpers/app.ts';
import { chromiumMissing, launchChromium } from './helpers/chromium.ts';
import { FakeUpstream } from './helpers/fake-upstream.ts';
import { serveHostPage } from './helpers/mcp-app-host.ts';
import { registerAllFixtures } from './fixtures/index.ts';

/**
 * MCP Apps: tools name ui:// views, resources/read serves them, and a host built on the
 * extension's AppBridge renders them in Chromium with real tool results from the demo.
 */
const SKIP = chromiumMissing('MCP Apps views in the browser');

let demo: Demo;
let client: Client;

async function connect(url: string): Promise<Client> {
  const c = new Client({ name: 'stadtdaten-apps-test', version: '1.0.0' });
  await c.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
  return c;
}

async function call(c: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await c.callTool({ name, arguments: args })) as CallToolResult;
}

async function readView(c: Client, uri: string): Promise<{ mimeType?: string; text: string; meta: unknown }> {
  const { contents } = await c.readResource({ uri });
  assert.equal(contents.length, 1, uri);
  const [one] = contents as { mimeType?: string; text?: string; _meta?: unknown }[];
  assert.equal(typeof one!.text, 'string', `${uri} is text`);
  return { mimeType: one!.mimeType, text: one!.text!, meta: one!._meta };
}

before(async () => {
  demo = await startDemo({ host: '127.0.0.1', port: 0, quiet: true });
  client = await connect(demo.url);
});
after(async () => {
  await client?.close();
  await demo?.close();
});

test('tools/list names ui://stadtdaten views in _meta.ui.resourceUri; resources/read returns them as text/html;profile=mcp-app', async () => {
  const { tools } = await client.listTools();
  const uiOf = (t: Tool) => (t._meta as { ui?: { resourceUri?: string } } | undefined)?.ui?.resourceUri;
  const expected = toolTable(CATALOG).map((t) => [t.name, viewOfTool(t.name, t.types)] as const);
  assert.deepEqual(
    tools.map((t) => [t.name, uiOf(t) ?? null]),
    expected.map(([name, view]) => [name, view ? appUri(view) : null]),
  );
  assert.equal(uiOf(tools.find((t) => t.name === 'city_overview')!), 'ui://stadtdaten/overview.html');
  assert.equal(uiOf(tools.find((t) => t.name === 'history')!), 'ui://stadtdaten/history.html');
  // Every topic tool with a type that has positions shows the map; the flat key of the first drafts says the same.
  for (const t of toolTable(CATALOG).filter((t) => t.types.some(mapped) && !t.types.some((dt) => dt.tool))) {
    const listed = tools.find((x) => x.name === t.name)!;
    assert.equal(uiOf(listed), 'ui://stadtdaten/map.html', t.name);
    assert.equal((listed._meta as Record<string, unknown>)['ui/resourceUri'], 'ui://stadtdaten/map.html', t.name);
  }

  const { resources } = await client.listResources();
  for (const view of APP_VIEWS) {
    const listed = resources.find((r) => r.uri === appUri(view));
    assert.ok(listed, `resources/list names ${appUri(view)}`);
    assert.equal(listed.mimeType, APP_MIME_TYPE);
    assert.equal(APP_MIME_TYPE, 'text/html;profile=mcp-app');
    const doc = await readView(client, appUri(view));
    assert.equal(doc.mimeType, 'text/html;profile=mcp-app');
    assert.deepEqual(doc.meta, { ui: { prefersBorder: true } });
    assert.match(doc.text, /^<!doctype html>/);
    assert.ok(Buffer.byteLength(doc.text) <= MAX_APP_HTML_BYTES, `${view}: ${Buffer.byteLength(doc.text)} bytes`);
    // One self-contained document: no element or style that loads anything (images are data: URLs, Leaflet's old-IE url(#default#VML) names no file; the script's text aside).
    const markup = doc.text.replace(/(<script[^>]*>)[\s\S]*?<\/script>/g, '$1</script>');
    assert.doesNotMatch(markup, /\s(src|href)=|@import|url\((?!\s*['"]?(data:|#))/i, view);
    assert.equal((await readView(client, appUri(view))).text, doc.text, 'built once: the same document again');
  }
});

test('a host without MCP Apps gets the same tools and results: MCP_APPS_ENABLED=false differs only by _meta and the ui:// resources', async () => {
  const fake = await new FakeUpstream().start();
  registerAllFixtures(fake);
  const [on, off] = await Promise.all([startApp(fakeEnv(fake.url)), startApp({ ...fakeEnv(fake.url), MCP_APPS_ENABLED: 'false' })]);
  const [withApps, without] = await Promise.all([connect(on.url), connect(off.url)]);
  try {
    const [a, b] = await Promise.all([withApps.listTools(), without.listTools()]);
    assert.ok(b.tools.every((t) => t._meta === undefined));
    assert.deepEqual(
      a.tools.map(({ _meta, ...t }) => t),
      b.tools,
    );
    const uris = async (c: Client) => (await c.listResources()).resources.map((r) => r.uri);
    assert.deepEqual(
      (await uris(withApps)).filter((u) => !u.startsWith('ui://')),
      await uris(without),
    );
    // Time stamps of the moment of the answer (each instance fetched and answered on its own, maybe a second apart)
    // aside, the results are the same.
    const moments = new Set(['generated_at', 'fetched_at']);
    const stable = (r: CallToolResult) =>
      JSON.parse(
        JSON.stringify(r, (k, v: unknown) => (moments.has(k) ? 'at' : typeof v === 'string' ? v.replace(/(generated_at|fetched_at): .*$/gm, '') : v)),
      ) as unknown;
    for (const [name, args] of [
      ['city_overview', { city: 'Freiburg' }],
      ['transport', { city: 'freiburg-im-breisgau', data_type: 'parking', limit: 5 }],
      // A fixed range: the default one ends now, and two calls a second apart would differ in from/to.
      ['history', { city: 'koeln', type: 'water-level', from: '2026-11-01T00:00:00Z', to: '2026-11-08T00:00:00Z' }],
      ['places', { city: 'koeln', data_type: 'nope' }],
    ] as const) {
      const [x, y] = [await call(withApps, name, args), await call(without, name, args)];
      assert.deepEqual(Object.keys(x).sort(), Object.keys(y).sort(), name);
      assert.equal(x._meta, undefined, `${name}: no _meta on results`);
      assert.deepEqual(stable(x), stable(y), name);
    }
  } finally {
    await Promise.all([withApps.close(), without.close()]);
    await Promise.all([on.close(), off.close()]);
    await fake.stop();
  }
});

/** The frame of the view the host shows (a srcdoc iframe). */
async function viewFrame(page: Page): Promise<Frame> {
  for (let i = 0; i < 100; i++) {
    const f = page.frames().find((x) => x.url() === 'about:srcdoc' && !x.detached);
    if (f) return f;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('no view frame');
}

test(
  'the views in Chromium under a host built on AppBridge: map features, chart points and values equal the tool results',
  { skip: SKIP, timeout: 45_000 },
  async () => {
    const host = await serveHostPage();
    let browser: Browser | null = null;
    try {
      browser = await launchChromium();
      const page = await browser.newPage();
      await page.setViewport({ width: 1280, height: 900 });
      const errors: string[] = [];
      const offOrigin: string[] = [];
      const calls: { name: string; arguments?: Record<string, unknown> }[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      page.on('pageerror', (e) => errors.push(String(e)));
      page.on('request', (r) => {
        const u = r.url();
        if (!u.startsWith(host.url) && !u.startsWith('about:') && !u.startsWith('data:')) offOrigin.push(u);
      });
      // The host's tools/call: the service's /mcp, as a real host forwards it.
      await page.exposeFunction('hostCallTool', async (params: { name: string; arguments?: Record<string, unknown> }) => {
        calls.push(params);
        return call(client, params.name, params.arguments ?? {});
      });
      await page.goto(`${host.url}/`, { waitUntil: 'load' });
      const { tools } = await client.listTools();
      const toolNamed = (name: string) => tools.find((t) => t.name === name)!;
      const views = Object.fromEntries(await Promise.all(APP_VIEWS.map(async (v) => [v, (await readView(client, appUri(v))).text] as const)));

      const show = async (view: string, tool: string, args: Record<string, unknown>, result: CallToolResult) => {
        await page.evaluate(
          (html, t, a, r) => (globalThis as unknown as { showView: (...x: unknown[]) => Promise<void> }).showView(html, t, a, r),
          views[view]!,
          toolNamed(tool),
          args,
          result,
        );
        return viewFrame(page);
      };
      // The host's own request id travels in _meta; the call itself is name and arguments.
      const strip = (c: (typeof calls)[number] | undefined) => c && { name: c.name, arguments: c.arguments };
      const js = <T>(frame: Frame, expr: string) => frame.evaluate(expr) as Promise<T>;
      const waitIn = (frame: Frame, sel: string) => frame.waitForSelector(sel, { timeout: 5000 });
      // Pixels the map's canvas has drawn (Leaflet's canvas renderer): more than none means items are on it.
      const inked = (frame: Frame) =>
        js<number>(
          frame,
          `(() => { const c = document.querySelector('.sd-map canvas'); if (!c || !c.width) return 0;
            const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let n = 0;
            for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++; return n; })()`,
        );
      const countOf = (frame: Frame, layer: string) => js<string | undefined>(frame, `document.querySelector('li[data-layer="${layer}"]')?.dataset.count`);

      // The map: a page of Munich's mobility hubs (its count in the legend), then every item through the host.
      const hubArgs = { city: 'muenchen', data_type: 'mobility-points', limit: 5 };
      const hubs = await call(client, 'transport', hubArgs);
      const env = hubs.structuredContent as { data: { lat?: number }[]; meta: { pagination: { total: number } } };
      assert.equal(env.data.length, 5);
      assert.ok(env.meta.pagination.total > 5 && env.data.every((d) => typeof d.lat === 'number'));
      let frame = await show('map', 'transport', hubArgs, hubs);
      await waitIn(frame, 'li[data-layer="mobility-points"][data-count]');
      assert.equal(await countOf(frame, 'mobility-points'), '5', 'the legend counts the items of the result');
      assert.equal(
        await js<string>(frame, `document.querySelector('li[data-layer="mobility-points"] .sd-status').textContent`),
        `5 of ${env.meta.pagination.total}`,
      );
      assert.ok((await inked(frame)) > 0, 'the items are drawn on the map canvas');
      await frame.click('button.sd-button');
      await frame.waitForFunction(`document.querySelector('li[data-layer="mobility-points"]')?.dataset.count === '${env.meta.pagination.total}'`, {
        timeout: 5000,
      });
      assert.deepEqual(strip(calls.at(-1)), { name: 'transport', arguments: { ...hubArgs, limit: 'all' } }, 'the view asked for every item through the host');
      const allHubs = (await call(client, 'transport', { ...hubArgs, limit: 'all' })).structuredContent as { data: unknown[] };
      assert.equal(Number(await countOf(frame, 'mobility-points')), allHubs.data.length);

      // The chart: the demo's recorded weather in Freiburg, one chart per field with every point and its unit.
      const histArgs = { city: 'freiburg-im-breisgau', type: 'weather' };
      const hist = await call(client, 'history', histArgs);
      const { data: rows, meta } = hist.structuredContent as { data: { field: string }[]; meta: { fields: { name: string; unit: string }[] } };
      assert.ok(rows.length > 0, 'the demo has recorded weather');
      frame = await show('history', 'history', histArgs, hist);
      await waitIn(frame, 'figure.sd-chart canvas');
      const drawn = await js<Record<string, number>>(
        frame,
        "Object.fromEntries([...document.querySelectorAll('figure.sd-chart')].map((f) => [f.dataset.field, Number(f.dataset.points)]))",
      );
      const expected: Record<string, number> = {};
      for (const r of rows) expected[r.field] = (expected[r.field] ?? 0) + 1;
      assert.deepEqual(drawn, expected);
      assert.equal(
        await js<number>(frame, "document.querySelectorAll('figure.sd-chart .sd-chart-table tbody tr').length"),
        rows.length,
        'a table row per point',
      );
      for (const f of meta.fields) {
        const title = await js<string>(frame, `document.querySelector('figure.sd-chart[data-field="${f.name}"] h4').textContent`);
        assert.ok(title.includes(`(${f.unit})`), `${f.name}: its unit in ${title}`);
      }
      // A range button asks the history tool again through the host.
      const before = calls.length;
      await frame.click('.sd-ranges button:nth-child(4)');
      await frame.waitForFunction("!document.querySelector('.sd-ranges button[disabled]')", { timeout: 5000 });
      assert.equal(calls.length, before + 1);
      const ranged = strip(calls.at(-1));
      assert.equal(ranged?.name, 'history');
      // The demo's recordings are old: the year ends at the latest recorded point.
      const last = Math.max(...(hist.structuredContent as { meta: { series: { last: string }[] } }).meta.series.map((x) => Date.parse(x.last)));
      assert.deepEqual(ranged?.arguments, {
        ...histArgs,
        from: new Date(last + 1000 - 365 * 86_400_000).toISOString(),
        to: new Date(last + 1000).toISOString(),
        every: '1d',
      });
      assert.ok(Number(await js<string>(frame, "document.querySelector('figure.sd-chart').dataset.points")) > 0, 'the year shows the recorded days');

      // The overview: highlights as values; a data type with positions opens on the map through the host.
      const overview = await call(client, 'city_overview', { city: 'Freiburg' });
      frame = await show('overview', 'city_overview', { city: 'Freiburg' }, overview);
      await waitIn(frame, 'ul.types');
      assert.match(await js<string>(frame, "document.querySelector('h1').textContent"), /Freiburg/);
      assert.ok((await js<number>(frame, `document.querySelectorAll('.sd-value-card[data-type="weather"] dd').length`)) > 0, 'weather values shown');
      const parkingArgs = { city: 'freiburg-im-breisgau', data_type: 'parking', limit: 'all' };
      const parking = (await call(client, 'transport', parkingArgs)).structuredContent as { data: unknown[] };
      assert.ok(parking.data.length > 0);
      await frame.click('li[data-type="parking"] button');
      await frame.waitForFunction(`document.querySelector('li[data-layer="parking"]')?.dataset.count === '${parking.data.length}'`, { timeout: 5000 });
      assert.deepEqual(strip(calls.at(-1)), { name: 'transport', arguments: parkingArgs });
      assert.ok((await inked(frame)) > 0, 'parking drawn on the map canvas');

      assert.deepEqual(errors, [], 'no console errors');
      assert.deepEqual(offOrigin, [], 'no request leaves the origin');
    } finally {
      await browser?.close();
      await host.close();
    }
  },
);

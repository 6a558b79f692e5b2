import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

/**
 * A minimal MCP Apps host for browser tests, built on the host side of the extension's own SDK
 * (AppBridge from @modelcontextprotocol/ext-apps/app-bridge): `window.showView(html, tool, args,
 * result)` renders a ui:// document in a sandboxed iframe under the default Content Security
 * Policy a host applies (no network), hands it the tool's arguments and result, and forwards the
 * view's tools/call to `window.hostCallTool`, which the test exposes (it calls the service's /mcp).
 * The page code is text, bundled by esbuild: the tests compile without DOM typings.
 */
const HOST_SOURCE = `
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';

// What hosts apply when a view's resource declares no csp (the extension's secure default).
const CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data: blob:; font-src data:; connect-src 'none'; frame-src 'none'; base-uri 'none'";

let current = null;
window.showView = async (html, tool, args, result, width) => {
  if (current) {
    await current.bridge.teardownResource({}).catch(() => {});
    await current.bridge.close().catch(() => {});
    current.iframe.remove();
  }
  const iframe = document.createElement('iframe');
  iframe.setAttribute('sandbox', 'allow-scripts');
  iframe.title = 'MCP App view';
  iframe.style.cssText = 'border:1px solid #888;width:' + (width || 760) + 'px;height:400px';
  document.body.append(iframe);
  const bridge = new AppBridge(
    null,
    { name: 'stadtdaten-test-host', version: '1.0.0' },
    { serverTools: {}, logging: {} },
    { hostContext: { toolInfo: { tool }, theme: 'light', displayMode: 'inline', platform: 'web', locale: 'en-GB', containerDimensions: { width: width || 760, maxHeight: 4000 } } },
  );
  bridge.oncalltool = (params) => window.hostCallTool(params);
  bridge.onsizechange = ({ height }) => { if (height) iframe.style.height = height + 'px'; };
  const initialized = new Promise((resolve) => { bridge.oninitialized = resolve; });
  await bridge.connect(new PostMessageTransport(iframe.contentWindow, iframe.contentWindow));
  iframe.srcdoc = html.replace('<head>', '<head><meta http-equiv="Content-Security-Policy" content="' + CSP + '">');
  await initialized;
  await bridge.sendToolInput({ arguments: args });
  await bridge.sendToolResult(result);
  current = { iframe, bridge };
};
`;

async function hostPageHtml(): Promise<string> {
  const { build } = await import('esbuild');
  const out = await build({
    stdin: { contents: HOST_SOURCE, resolveDir: fileURLToPath(new URL('../..', import.meta.url)), loader: 'js' },
    bundle: true,
    format: 'iife',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
    supported: { 'inline-script': false },
  });
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>MCP Apps test host</title></head><body><script>${out.outputFiles[0]!.text}</script></body></html>`;
}

/** The host page on loopback: its origin is the one every request of the test's browser must stay on. */
export async function serveHostPage(): Promise<{ url: string; close(): Promise<void> }> {
  const html = await hostPageHtml();
  const server = createServer((req, res) => {
    if (req.url === '/') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The Node HTTP stack's own limit: node:http with no framework, answering the same bytes as
 * Stadtdaten (body and headers, from the manifest; see bare-fastify.ts). What a cache HIT costs
 * beyond this is the cost of Stadtdaten's own code. A request with Accept-Encoding gets the
 * manifest's pre-compressed answer (`gzip <url>`), one with X-Forwarded-For the answer of the
 * instance behind TRUST_PROXY (`trust <url>`): bench/run.ts's hit-gzip and hit-trust-proxy rows.
 */
import { createServer } from 'node:http';
import { readManifest } from './manifest.ts';

const [manifestFile, port] = process.argv.slice(2);
const answers = readManifest(manifestFile);
const server = createServer((req, res) => {
  const url = req.url ?? '/';
  const a = answers.get(req.headers['accept-encoding'] ? `gzip ${url}` : req.headers['x-forwarded-for'] ? `trust ${url}` : url);
  if (!a) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, a.rawHeaders);
  res.end(a.body);
});
server.listen(Number(port), '127.0.0.1', () => process.send?.('ready'));

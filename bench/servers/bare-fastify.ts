/** The ceiling for (a): a bare Fastify route answering the same bytes as a Stadtdaten cache HIT. */
import Fastify from 'fastify';
import { readFileSync } from 'node:fs';

const [bodyFile, port] = process.argv.slice(2);
if (bodyFile === undefined || port === undefined) throw new Error('usage: bare-fastify.ts <body file> <port>');
const body = readFileSync(bodyFile);
const app = Fastify({ logger: false });
app.get('/api/v1/cities/:slug/weather', async (_req, reply) => reply.header('content-type', 'application/json; charset=utf-8').send(body));
await app.listen({ host: '127.0.0.1', port: Number(port) });
process.send?.('ready');

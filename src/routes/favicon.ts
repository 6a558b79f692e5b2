import type { FastifyInstance } from 'fastify';

/**
 * The site icon browsers ask for on every page: a city skyline in one path. An SVG is accepted under the name
 * /favicon.ico by current browsers (they go by Content-Type), and without it every page visit logs a 404.
 */
const ICON = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#0b4f8a"/>' +
    '<path fill="#fff" d="M5 27V15h5v-4h4v6h3V7h5v8h3v-3h3v15z"/></svg>',
);

export function registerFavicon(app: FastifyInstance) {
  for (const path of ['/favicon.ico', '/favicon.svg'])
    app.get(path, async (_req, reply) => reply.header('content-type', 'image/svg+xml').header('cache-control', 'public, max-age=604800').send(ICON));
}

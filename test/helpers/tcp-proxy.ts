import { createConnection, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A loopback TCP proxy to a server the test does not own (the shared PostgreSQL): stopping it
 * closes every connection and refuses new ones, as if that server went away; starting it again
 * on the same port brings it back.
 */
export interface TcpProxy {
  port: number;
  stop(): Promise<void>;
  start(): Promise<void>;
}

export async function tcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;
  const start = async () => {
    const s = createServer((client) => {
      const upstream = createConnection(target.port, target.host);
      for (const sock of [client, upstream]) {
        sockets.add(sock);
        sock.on('close', () => sockets.delete(sock));
        sock.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      upstream.on('close', () => client.destroy());
      client.on('close', () => upstream.destroy());
    });
    await new Promise<void>((ok) => s.listen(port, '127.0.0.1', ok));
    port = (s.address() as AddressInfo).port;
    server = s;
  };
  await start();
  return {
    get port() {
      return port;
    },
    start,
    async stop() {
      const s = server;
      server = null;
      for (const sock of sockets) sock.destroy();
      if (s) await new Promise((ok) => s.close(ok));
    },
  };
}

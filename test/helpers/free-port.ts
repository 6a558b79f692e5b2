import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

/** A port no one listens on right now (for a child process that must be told its port). */
export async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((ok) => srv.listen(0, '127.0.0.1', ok));
  const { port } = srv.address() as AddressInfo;
  await new Promise((ok) => srv.close(ok));
  return port;
}

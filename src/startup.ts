import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { isConfigError, loadConfig, type Config } from './core/config.ts';
import { CATALOG } from './catalog/index.ts';

/**
 * Process start: the settings of this deployment (every source the catalog reads), `.env`, and the
 * start of a listener, each ending with one clear line instead of a stack trace. config.ts parses
 * and validates; this module runs it for the app.
 */

/** The configuration of this deployment: the environment read for every source the catalog reads. */
export function loadAppConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return loadConfig(env, CATALOG.sources);
}

/**
 * Reads `.env` from the working directory into process.env with Node's own loader. A variable
 * already set in the environment keeps its value: the environment wins over the file.
 * Returns the file loaded, or null when there is none.
 */
export function loadDotEnv(dir: string = process.cwd()): string | null {
  const file = join(dir, '.env');
  if (!existsSync(file)) return null;
  process.loadEnvFile(file);
  return file;
}

/**
 * For process entries (HTTP server, MCP stdio): `.env` first, then the configuration; a config
 * error ends the start with one clear line naming the program and exit code 2, never a stack
 * trace an operator has to decode.
 */
export function loadConfigOrExit(program: string): Config {
  try {
    loadDotEnv();
    return loadAppConfig();
  } catch (err) {
    if (isConfigError(err)) {
      console.error(`${program}: invalid configuration: ${err.message}`);
      process.exit(2);
    }
    if (err instanceof SyntaxError || (err as NodeJS.ErrnoException).code === 'EACCES') {
      console.error(`${program}: cannot read .env: ${(err as Error).message}`);
      process.exit(2);
    }
    throw err;
  }
}

/**
 * `app.listen` for the process entries: a busy or forbidden port ends the start with one line
 * that says what to change, instead of a stack trace.
 */
export async function listenOrExit(app: { listen(o: { host: string; port: number }): Promise<unknown> }, host: string, port: number, program: string) {
  try {
    await app.listen({ host, port });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') {
      const why = code === 'EADDRINUSE' ? 'is already in use' : code === 'EACCES' ? 'needs privileges' : 'is not available on this machine';
      console.error(
        `${program}: cannot listen on ${host}:${port}: the address ${why}; start with another port, e.g. PORT=${port === 0 ? 3000 : port + 1} (or HOST=...).`,
      );
      process.exit(1);
    }
    throw err;
  }
}

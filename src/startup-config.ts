import { isConfigError, type Config } from './config.ts';
import { loadAppConfig } from './app-config.ts';

/**
 * For process entries (HTTP server, MCP stdio): a config error ends the start with one clear
 * line naming the program and exit code 2, never a stack trace an operator has to decode.
 */
export function loadConfigOrExit(program: string): Config {
  try {
    return loadAppConfig();
  } catch (err) {
    if (isConfigError(err)) {
      console.error(`${program}: invalid configuration: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
}

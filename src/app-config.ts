import { loadConfig, type Config } from './config.ts';
import { CATALOG } from './catalog/index.ts';

/** The configuration of this deployment: the environment read for every registered source. */
export function loadAppConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return loadConfig(env, CATALOG.sources);
}

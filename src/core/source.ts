/** A source is one upstream: where it lives, how it is licensed, how it may be called. Data only. */
export type Tier = 'A' | 'B' | 'C';

export interface SourceDecl {
  /** Stable id, used in /sources, metrics and cache keys. */
  id: string;
  name: string;
  /** Prefix of its environment variables: `<env>_ENABLED`, `<env>_BASE_URL`. */
  env: string;
  baseUrl: string;
  /** Further configurable URLs of the same source, e.g. a static feed next to a realtime one. */
  urls?: Record<string, { env: string; default: string; description: string }>;
  license: string;
  licenseUrl: string;
  tier: Tier;
  attribution: string;
  /** DWD's data-use ordinance asks for a modification notice when values are re-shaped. */
  modified?: boolean;
  /** Environment variable names that must all be set; missing ones make the source `disabled`. */
  credentials?: string[];
  /** Where and how to get those credentials (README and /api/v1/sources show it). */
  registration?: Registration;
  enabledByDefault?: boolean;
  breaker?: { threshold?: number; cooldownSeconds?: number };
  /** Whole-call budget for one upstream request (connect + headers + body). */
  timeoutMs?: number;
  maxResponseBytes?: number;
  /** Minimum spacing of calls across the cluster, e.g. DB's 60 calls per minute. */
  ratePerMinute?: number;
  /** The call limit its operator publishes, for the capacity table in docs/operations.md (`npm run capacity-docs`). */
  publishedLimit?: PublishedLimit;
  /**
   * Tunable numeric limits of the source (a radius, a concurrency): each is the environment
   * variable `<env>_<KEY>`, read through the config and documented by `npm run env-docs`.
   */
  limits?: Record<string, LimitDecl>;
  /** Why a source with `enabledByDefault: false` is off (e.g. no published licence); sent as meta.disabled_reason. */
  offReason?: string;
}

/** A limit an upstream's operator publishes (or states it has none), with where it is stated. */
export interface PublishedLimit {
  /** Calls per hour it allows; null where it is no call count (query time, best effort) or there is none. */
  perHour: number | null;
  /** The limit as stated. */
  text: string;
  /** Where it is stated: a URL, or the research note that quotes it. */
  ref: string;
}

export interface LimitDecl {
  default: number;
  min: number;
  max: number;
  description: string;
}

/** The environment variable of a source's limit. */
export function limitEnv(src: SourceDecl, key: string): string {
  return `${src.env}_${key}`;
}

/**
 * A limit's configured value (its declared default where the loaded config has none, e.g. a
 * config loaded for another source list). Takes the config structurally: core imports no config.
 */
export function limitOf(config: { sources: Record<string, { limits: Record<string, number> } | undefined> }, src: SourceDecl, key: string): number {
  const decl = src.limits?.[key];
  if (!decl) throw new Error(`source ${src.id} declares no limit ${key}`);
  return config.sources[src.id]?.limits[key] ?? decl.default;
}

export interface Registration {
  /** The page where an account or key is requested. */
  url: string;
  /** Whether the account/key costs nothing (`by agreement`: terms are negotiated with the provider). */
  free: boolean | 'by agreement';
  /** What to do there and which value goes into which variable. */
  note: string;
}

export interface Attribution {
  source: string;
  text: string;
  license: string;
  license_url: string;
  tier: Tier;
  modified: boolean;
  modification_notice?: string;
}

export function attributionOf(src: SourceDecl): Attribution {
  const a: Attribution = {
    source: src.name,
    text: src.attribution,
    license: src.license,
    license_url: src.licenseUrl,
    tier: src.tier,
    modified: src.modified === true,
  };
  if (src.modified) {
    a.modification_notice = 'Values were selected, converted to SI-compatible units and renamed to the Stadtdaten vocabulary.';
  }
  return a;
}

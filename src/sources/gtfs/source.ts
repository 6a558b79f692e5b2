import type { SourceDecl } from '../../core/source.ts';

/**
 * gtfs.de: the nationwide keyless GTFS-Realtime feed (TripUpdates + Alerts, no vehicle positions)
 * and the static GTFS feed whose ids it shares. Both derive from DELFI data, CC BY-SA 4.0.
 */
export const GTFS_DE: SourceDecl = {
  id: 'gtfs-de',
  name: 'gtfs.de (GTFS-Realtime and static GTFS, Germany)',
  env: 'GTFS_RT',
  baseUrl: 'https://realtime.gtfs.de/realtime-free.pb',
  urls: {
    static: {
      env: 'GTFS_STATIC_URL',
      default: 'https://download.gtfs.de/germany/free/latest.zip',
      description: 'Static GTFS zip in the id namespace of the realtime feed (indexed weekly)',
    },
  },
  license: 'CC BY-SA 4.0',
  licenseUrl: 'https://creativecommons.org/licenses/by-sa/4.0/',
  tier: 'B',
  attribution: 'Fahrplan- und Echtzeitdaten: gtfs.de, abgeleitet aus Daten der DELFI e.V.',
  // Share-alike data that we reshape (joined with the schedule, delays derived): say so.
  modified: true,
  // The realtime feed is 50-70 MB; the static zip several hundred MB (its job raises the cap per call).
  timeoutMs: 60_000,
  maxResponseBytes: 128 * 1024 * 1024,
  breaker: { threshold: 3, cooldownSeconds: 120 },
};

/** The static zip is far larger than one realtime poll; only the weekly job asks for it. */
export const STATIC_MAX_BYTES = 1024 * 1024 * 1024;
export const STATIC_TIMEOUT_MS = 15 * 60_000;

/** The spec's live cadence; the feed itself is regenerated about once a minute. */
export const POLL_INTERVAL_MS = 45_000;

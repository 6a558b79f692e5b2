import type { SourceDecl } from '../../core/source.ts';

/**
 * destination.one (eT4 META search): tourism boards' event databases. Open-data experiences
 * answer without a licence key; every record carries its own licence.
 */
export const DESTINATION_ONE: SourceDecl = {
  id: 'destination-one',
  name: 'destination.one (eT4 META)',
  env: 'DESTINATION_ONE',
  baseUrl: 'https://meta.et4.de/rest.ashx',
  license: 'per record: CC0, CC BY or CC BY-SA (data[].license)',
  licenseUrl: 'https://creativecommons.org/licenses/',
  tier: 'B',
  attribution: 'Veranstaltungen: destination.one / Tourismusverband (Lizenz je Eintrag, siehe license)',
  timeoutMs: 15000,
  maxResponseBytes: 16 * 1024 * 1024,
};

/** Cities whose tourism board publishes an open-data experience, and that experience. */
export const EVENT_EXPERIENCES: Readonly<Record<string, string>> = {
  dresden: 'open-data-sachsen-tourismus',
  leipzig: 'open-data-sachsen-tourismus',
  chemnitz: 'open-data-sachsen-tourismus',
};

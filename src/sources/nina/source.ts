import type { SourceDecl } from '../../core/source.ts';

/**
 * BBK's warning system NINA (MoWaS, DWD, KATWARN, BIWAPP, LHP, police), keyless. Warnings are
 * official texts: passed on unchanged with the source named, so no modification notice.
 */
export const NINA: SourceDecl = {
  id: 'nina',
  name: 'Bundesamt für Bevölkerungsschutz und Katastrophenhilfe (NINA Warn-App)',
  env: 'NINA',
  baseUrl: 'https://warnung.bund.de/api31',
  license: 'Amtliche Warnmeldungen (§ 5 UrhG), unverändert mit Quellenangabe',
  licenseUrl: 'https://warnung.bund.de/impressum',
  tier: 'A',
  attribution: 'Quelle: Bundesamt für Bevölkerungsschutz und Katastrophenhilfe (BBK), NINA; Warnungen unverändert',
  modified: false,
  timeoutMs: 8000,
  maxResponseBytes: 2_000_000,
};

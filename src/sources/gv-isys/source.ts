import type { SourceDecl } from '../../core/source.ts';

/**
 * Destatis Gemeindeverzeichnis (GV-ISys): population, area and coordinates of every German
 * municipality, published quarterly as XLSX. Precomputed into the city register
 * (src/cities/register.json, see PROVENANCE.md), so answering needs no upstream call.
 */
export const GV_ISYS: SourceDecl = {
  id: 'destatis-gv-isys',
  name: 'Destatis Gemeindeverzeichnis (GV-ISys), precomputed',
  env: 'GV_ISYS',
  baseUrl: 'https://www.destatis.de/DE/Themen/Laender-Regionen/Regionales/Gemeindeverzeichnis',
  license: 'dl-de/by-2-0',
  licenseUrl: 'https://www.govdata.de/dl-de/by-2-0',
  tier: 'A',
  attribution: '© Statistisches Bundesamt (Destatis), Gemeindeverzeichnis-Informationssystem GV-ISys, 31.12.2024',
};

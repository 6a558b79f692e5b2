import { UpstreamError } from '../../core/upstream-error.ts';
import { cpgEncoding, readDbf, readPolygons, type Ring } from './shapefile.ts';
import { withZip } from '../../upstream/zip-archive.ts';

/** VG250 Geofaktor 4: land parts with structure (the municipality's land area; water parts are 1 and 2). */
const LAND = '4';

export interface Municipality {
  ags: string;
  name: string | null;
  designation: string | null;
  effective_since: string | null;
  rings: Ring[];
}

/** A dBASE date YYYYMMDD as YYYY-MM-DD. */
function dbfDate(v: string | undefined): string | null {
  return v && /^\d{8}$/.test(v) ? `${v.slice(0, 4)}-${v.slice(4, 6)}-${v.slice(6, 8)}` : null;
}

/**
 * The municipalities (layer VG250_GEM) of the VG250 archive whose AGS is wanted, their land
 * parts' rings merged (a municipality can have several records, e.g. exclaves).
 */
export async function readMunicipalities(archive: Buffer, wanted: ReadonlySet<string>): Promise<Map<string, Municipality>> {
  const files = await withZip(archive, { label: 'VG250 archive', maxMembers: 1000 }, async (zip) => {
    const out = new Map<string, Buffer>();
    for (const m of zip.members) if (/(^|\/)VG250_GEM\.(shp|dbf|cpg)$/i.test(m.name)) out.set(m.baseName, await zip.bytes(m, 512 * 1024 * 1024));
    return out;
  });
  const shp = files.get('VG250_GEM.shp');
  const dbf = files.get('VG250_GEM.dbf');
  if (!shp || !dbf) throw new UpstreamError('parse', 'VG250 archive without the VG250_GEM layer');
  const rows = readDbf(dbf, cpgEncoding(files.get('VG250_GEM.cpg')?.toString('latin1') ?? null));
  const shapes = readPolygons(shp);
  if (rows.length !== shapes.length) throw new UpstreamError('parse', `VG250_GEM: ${rows.length} table rows but ${shapes.length} shapes`);
  const head = rows[0];
  if (head && !('AGS' in head && 'GF' in head)) throw new UpstreamError('parse', 'VG250_GEM table without AGS and GF columns');
  const out = new Map<string, Municipality>();
  rows.forEach((row, i) => {
    const rings = shapes[i];
    const ags = row.AGS;
    if (row._deleted || !rings || row.GF !== LAND || ags === undefined || !wanted.has(ags)) return;
    const m = out.get(ags);
    if (m) m.rings.push(...rings);
    else out.set(ags, { ags, name: row.GEN || null, designation: row.BEZ || null, effective_since: dbfDate(row.WSK), rings: [...rings] });
  });
  return out;
}

/**
 * The LHP gauge (PGNR) of each covered city: one gauge whose name carries the city's name, on the
 * river through the city. Curated from LHP's gauge list (get_lagepegel.php, columns PGNR/PGNAME)
 * as read by the earlier implementation on 2026-06-10; see src/cities/PROVENANCE.md, section
 * "Flood gauges". Cities without an unambiguous city gauge are not covered.
 */
export const FLOOD_GAUGES: Readonly<Record<string, readonly string[]>> = {
  berlin: ['BE_586290'], // Berlin-Köpenick, Spree-Oder-Wasserstraße
  hamburg: ['SH_5952050'], // Hamburg St. Pauli, Elbe
  muenchen: ['BY_16005701'], // München, Isar
  koeln: ['NW_2730010'], // Köln, Rhein
  'frankfurt-am-main': ['HE_24700404'], // Frankfurt-Osthafen, Main
  duesseldorf: ['NW_2750010'], // Düsseldorf, Rhein
  essen: ['NW_2769720000200'], // Essen-Hespertal, Hesperbach
  leipzig: ['SN_578110'], // Leipzig-Thekla, Parthe
  dresden: ['SN_501060'], // Dresden, Elbe
  nuernberg: ['BY_24225000'], // Nürnberg Lederersteg, Pegnitz
  duisburg: ['NW_2770010'], // Duisburg-Ruhrort, Rhein
  bonn: ['NW_2710080'], // Bonn, Rhein
  mainz: ['RP_25100100'], // Mainz, Rhein
  erfurt: ['TH_57421.0'], // Erfurt-Möbisburg, Gera
};

export const FLOOD_CITIES: readonly string[] = Object.keys(FLOOD_GAUGES);

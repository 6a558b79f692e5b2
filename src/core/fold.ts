/**
 * Names compared across sources (a city in a URL, a place in a register, a station name) are
 * folded the same way everywhere: lower case, umlauts and ß spelt out (ä → ae), other accents
 * dropped (é → e). Spaces and punctuation stay; callers that need a key use `fold`.
 */
export function foldLetters(input: string): string {
  return input
    .toLowerCase()
    .replace(/ä/g, 'ae')
    .replace(/ö/g, 'oe')
    .replace(/ü/g, 'ue')
    .replace(/ß/g, 'ss')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '');
}

/** Folded key: `foldLetters`, then every run of other characters collapsed to one '-' (`Halle (Saale)` → `halle-saale`). */
export function fold(input: string): string {
  return foldLetters(input)
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** Where a place name's qualifier begins: "Frankfurt/Main", "Halle (Saale)", "Frankfurt am Main", "Mülheim an der Ruhr", "Rothenburg ob der Tauber". */
const QUALIFIER = /\s*[/(,]\s*|\s+(?:am|an der|an|im|in der|in|ob der|ob)\s+/;

/** The core of a place name for matching free text of other sources against it: folded, qualifier dropped, words apart by one space. */
export function nameCore(name: string): string {
  // split() always yields at least one piece.
  return foldLetters(name)
    .split(QUALIFIER)[0]!
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** Second key: umlaut transliterations collapsed, so `munchen` and `muenchen` meet. */
export function stripped(folded: string): string {
  return folded.replace(/ae/g, 'a').replace(/oe/g, 'o').replace(/ue/g, 'u');
}

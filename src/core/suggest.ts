/** Edit distance between two strings (insert, delete, substitute). */
export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  // prev and cur hold b.length + 1 entries and j stays within them, hence the `!`s.
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length]!;
}

/** The candidate a typo most likely meant: the nearest within a third of the word's length (1 to 3 edits), else null. */
export function nearest(word: string, candidates: Iterable<string>): string | null {
  const w = word.toLowerCase();
  if (!w) return null;
  let best: string | null = null;
  let bestDist = Infinity;
  for (const c of candidates) {
    const d = levenshtein(w, c.toLowerCase());
    if (d < bestDist) {
      bestDist = d;
      best = c;
    }
  }
  const allowed = Math.max(1, Math.min(3, Math.floor(w.length / 3)));
  return bestDist <= allowed ? best : null;
}

/**
 * "Did you mean": the known words closest to a mistyped one (an edit or two away, or one it begins
 * or ends), as a native tool answers a typo.
 */
export function suggest(word: string, known: Iterable<string>, limit = 3): string[] {
  const typed = word.toLowerCase();
  const scored: Array<{ name: string; distance: number }> = [];
  for (const name of known) {
    const distance = editDistance(typed, name.toLowerCase());
    const allowed = name.length <= 3 ? 1 : 2;
    const near = typed.length >= 3 && (name.startsWith(typed) || name.endsWith(typed) || typed.startsWith(name));
    if (distance <= allowed || near) {
      scored.push({ name, distance: near ? Math.min(distance, allowed) : distance });
    }
  }
  return scored
    .sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name))
    .slice(0, limit)
    .map((entry) => entry.name);
}

/** `(did you mean "x" or "y"?)` or nothing. */
export function didYouMean(word: string, known: Iterable<string>, prefix = ''): string {
  const close = suggest(word, known);
  if (close.length === 0) {
    return '';
  }
  const quoted = close.map((name) => `"${prefix}${name}"`);
  return ` (did you mean ${quoted.length === 1 ? quoted[0] : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`}?)`;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and swapped neighbours. */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const row = rows[i] ?? [];
      const above = rows[i - 1] ?? [];
      let best = Math.min((above[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (above[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, (rows[i - 2]?.[j - 2] ?? 0) + 1);
      }
      row[j] = best;
    }
  }
  return rows[a.length]?.[b.length] ?? 0;
}

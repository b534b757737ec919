// How many terminal columns text takes: string-width (CJK and emoji take two columns, marks and
// joiners none), loaded on first need, as its import costs a start about 28 ms; until then an
// estimate by the same rules for the common cases. The markdown tables and the questions measure
// with it.

// Module-level on purpose: a cache of one dynamic import, as Node keeps the module itself once per
// process; every renderer and question shares the loaded function.
let measure: ((text: string) => number) | undefined;
let loading: Promise<void> | undefined;

/**
 * Starts loading string-width, once; resolves when it is there (or could not be loaded: the
 * estimate stays). A row that may begin a table calls it, and so does a question before it shows.
 */
export function loadWidths(): Promise<void> {
  loading ??= import('string-width').then(
    (m) => {
      measure = m.default;
    },
    () => {},
  );
  return loading;
}

/** Columns `text` takes: its length for printable ASCII, else string-width's, else an estimate. */
export function displayWidth(text: string): number {
  if (PRINTABLE_ASCII.test(text)) return text.length;
  return measure ? measure(text) : estimateWidth(text);
}

/**
 * `text` cut to at most `max` columns, ending in `…` when cut; a character with its marks or an
 * emoji sequence (a grapheme) is never split.
 */
export function cutToWidth(text: string, max: number): string {
  if (displayWidth(text) <= max) return text;
  let shown = '';
  let used = 0;
  for (const { segment } of new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)) {
    const w = displayWidth(segment);
    if (used + w > max - 1) break;
    shown += segment;
    used += w;
  }
  return `${shown}…`;
}

/** Until string-width is loaded: marks and joiners take none, CJK and pictographs two columns. */
export function estimateWidth(text: string): number {
  let width = 0;
  for (const ch of text) {
    if (/[\p{M}\u200b-\u200f\ufe0f]/u.test(ch)) continue;
    width += /[\p{Extended_Pictographic}\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u.test(ch) ? 2 : 1;
  }
  return width;
}

/** Text whose width is its length: string-width's grapheme segmentation is only needed beyond it. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

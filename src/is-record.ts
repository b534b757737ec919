// The one shape guard for JSON from outside (a server, a file, a model): every field is checked
// before use, nothing is trusted.

/** A plain JSON object (not null, not an array). */
export function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

// The MCP SDK, zod and ajv, with what they bring (jose, fast-uri, ...: about 600 KB), are a bundle
// of their own, dist/vendor.js, compiled with the first MCP server rather than at every start
// with the program's (scripts/build.mjs routes the program's imports of those packages here).
// Only the built program uses this file; tests and src/ import the packages as usual.

import path from 'node:path';
import { requireBundle } from './code-cache.js';

type Vendor = Record<string, () => unknown>;

// Module-level on purpose: like Node's own module cache, the bundle is evaluated once per process,
// whoever asks first; a second evaluation would make a second copy of every package in it.
let vendor: Vendor | undefined;

/** The package module `specifier` (as src/ imports it), from dist/vendor.js. */
export function vendorModule(specifier: string): unknown {
  vendor ??= requireBundle(path.join(__dirname, 'vendor.js')) as Vendor;
  const load = vendor[specifier];
  if (!load) throw new Error(`dist/vendor.js does not hold ${specifier}`);
  return load();
}

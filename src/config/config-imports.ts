// What a project's code config may import: `aish` and Node's built-in modules, nothing else. Trust
// is given to a file's bytes (their sha256); a local file it imports (`./helper.mjs`), or a package
// of the project's own node_modules, could change after that without a question, and a Norris step
// can write it. Hashing the config's whole import graph instead is not sound here: jiti hands
// `.mjs`, `.cjs` and `.json` files and packages to Node's own loader, whose further imports it
// never sees, so aish can know neither every file that ran nor the bytes it ran.
//
// Held twice: the config's source is read for imports before anything runs (a refused config is
// passed over, with the import named), and while it runs, every module it asks jiti for but
// `aish` is refused (built-ins are served before jiti asks), which covers an import the reading
// missed or one named at run time: that config is passed over then.

import { builtinModules } from 'node:module';

/** The one module of a project config that is not a built-in: aish's own `defineConfig`. */
const ALLOWED = new Set(['aish']);

/** Why a project config may import only these, for the reason after "it imports ...". */
const WHY = "which the hash you trust does not cover (a project config may import only aish and Node's built-in modules)";

/** Whether `specifier` is a module a project config may load. */
export function importAllowed(specifier: string): boolean {
  return ALLOWED.has(specifier) || specifier.startsWith('node:') || builtinModules.includes(specifier);
}

/** `import ... from 'x'`, `export ... from 'x'` (type-only ones excepted: they load nothing). */
const FROM = /(?<![\w$.])(import|export)(\s+type\b)?[^'"`;]*?\bfrom\s*(['"])([^'"]*)\3/g;
/** `import 'x'` */
const BARE_IMPORT = /(?<![\w$.])import\s*(['"])([^'"]*)\1/g;
/** `import(...)`, `require(...)`: the argument must be one string. */
const CALL = /(?<![\w$.])(import|require)\s*\(\s*(?:(['"])([^'"]*)\2\s*[,)])?/g;

/**
 * Why the code config `source` may not be used as a project config: the first import of anything
 * but aish and the built-ins, or a module named at run time; undefined when it has none. Read from
 * the source as written (a comment that looks like an import counts too: a refusal too many is
 * safe, one too few is not).
 */
export function refusedImport(source: string): string | undefined {
  for (const m of source.matchAll(FROM)) {
    if (!m[2] && !importAllowed(m[4]!)) return `it imports ${m[4]}, ${WHY}`;
  }
  for (const m of source.matchAll(BARE_IMPORT)) {
    if (!importAllowed(m[2]!)) return `it imports ${m[2]}, ${WHY}`;
  }
  for (const m of source.matchAll(CALL)) {
    if (m[3] === undefined) return `it calls ${m[1]}() with a module named at run time, ${WHY}`;
    if (!importAllowed(m[3])) return `it imports ${m[3]}, ${WHY}`;
  }
  return undefined;
}

/** What the guard throws: the load of a project config stops at an import it may not make. */
export class ImportRefused extends Error {}

/**
 * jiti's `virtualModules` for a project config: jiti looks in it for every module the config (or
 * what it loads through jiti) asks for, built-ins aside; asking for any other than `aish` throws
 * ImportRefused, before anything of that module is read. A guard, not a store: it holds no module.
 */
export function importGuard(): Record<string, unknown> {
  return new Proxy(
    {},
    {
      has(_target, specifier) {
        if (typeof specifier === 'string' && !importAllowed(specifier)) throw new ImportRefused(`it imports ${specifier}, ${WHY}`);
        return false;
      },
    },
  );
}

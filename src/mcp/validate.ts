// Checks tool arguments against the tool's `inputSchema` with ajv before anything runs (SPEC §6
// sub-loop). Validators are compiled once per schema object; errors read `/path: must be number`.

import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';

const MAX_ERRORS = 10;

/** The outcome of checking arguments: errors (empty when valid), or a schema ajv cannot use. */
export type ArgumentCheck = { errors: string[] } | { unusable: string };

/**
 * Compiles and caches validators per schema object. Lenient about schemas (`strict: false`, no
 * meta-schema check, formats not checked: aish ships no format library) and strict about data
 * (`allErrors`). The dialect follows `$schema`: 2020-12, 2019-09, otherwise draft-07 rules.
 */
export class ArgumentValidator {
  #engines = new Map<string, Ajv>();
  #compiled = new WeakMap<object, ValidateFunction | { unusable: string }>();

  /** Checks `args` against `schema`. Never throws. */
  check(schema: Record<string, unknown>, args: unknown): ArgumentCheck {
    let validate = this.#compiled.get(schema);
    if (validate === undefined) {
      validate = this.#compile(schema);
      this.#compiled.set(schema, validate);
    }
    if (!(validate instanceof Function)) return validate;
    if (validate(args)) return { errors: [] };
    return { errors: formatAjvErrors(validate.errors ?? []) };
  }

  #compile(schema: Record<string, unknown>): ValidateFunction | { unusable: string } {
    const dialect = String(schema.$schema ?? '');
    const key = dialect.includes('2020-12') ? '2020' : dialect.includes('2019-09') ? '2019' : '07';
    let engine = this.#engines.get(key);
    if (!engine) {
      const options = { strict: false, allErrors: true, validateSchema: false, validateFormats: false, logger: false } as const;
      engine = key === '2020' ? new Ajv2020(options) : key === '2019' ? new Ajv2019(options) : new Ajv(options);
      this.#engines.set(key, engine);
    }
    try {
      // A copy: ajv keeps compiled schemas by $id, and two servers may reuse one.
      const { $id: _id, ...rest } = schema;
      return engine.compile(rest);
    } catch (err) {
      return { unusable: err instanceof Error ? err.message.split('\n')[0]! : String(err) };
    }
  }
}

/** ajv errors as `/path: message` lines, deduplicated, at most ten. */
export function formatAjvErrors(errors: readonly ErrorObject[]): string[] {
  const lines: string[] = [];
  for (const e of errors) {
    let path = e.instancePath || '/';
    let message = e.message ?? 'is not valid';
    const params = e.params as Record<string, unknown>;
    if (e.keyword === 'required' && typeof params.missingProperty === 'string') {
      path = `${e.instancePath}/${params.missingProperty}`;
      message = 'is required';
    } else if (e.keyword === 'additionalProperties' && params.additionalProperty !== undefined) {
      path = `${e.instancePath}/${String(params.additionalProperty)}`;
      message = 'is not an allowed property';
    } else if (e.keyword === 'enum' && Array.isArray(params.allowedValues)) {
      message = `must be one of ${params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
    } else if (e.keyword === 'const') {
      message = `must be ${JSON.stringify(params.allowedValue)}`;
    }
    const line = `${path}: ${message}`;
    if (!lines.includes(line)) lines.push(line);
    if (lines.length === MAX_ERRORS) break;
  }
  return lines;
}

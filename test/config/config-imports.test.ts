// What a project's code config may import (src/config/config-imports.ts): aish and Node's
// built-ins; anything else, or a module named at run time, refuses the config. Pure.

import { describe, expect, it } from 'vitest';
import { refusedImport } from '../../src/config/config-imports.js';

describe('refusedImport', () => {
  it.each([
    ["import { defineConfig } from 'aish';"],
    ["import fs from 'node:fs';\nimport path from \"path\";"],
    ["import {\n  readFileSync,\n  statSync,\n} from 'node:fs';"],
    ["import type { Config } from './types';"],
    ["export type { Config } from './types';"],
    ["const os = require('os');"],
    ["const { homedir } = await import('node:os');"],
    ["export default { prompt: 'copied from the docs', from: 'x' };"],
    ["import.meta.url;"],
  ])('lets %j run', (source) => {
    expect(refusedImport(source)).toBeUndefined();
  });

  it.each([
    ["import { allow } from './helper.mjs';", './helper.mjs'],
    ["import helper from '../helper';", '../helper'],
    ["export * from './more.js';", './more.js'],
    ["import './side-effect.js';", './side-effect.js'],
    ["import zod from 'zod';", 'zod'],
    ["import x from 'aish/internal';", 'aish/internal'],
    ["import x from '/etc/passwd.js';", '/etc/passwd.js'],
    ["const h = require('./helper.cjs');", './helper.cjs'],
    ["const h = await import('./helper.mjs');", './helper.mjs'],
    ["import { type A, b } from './types';", './types'],
  ])('refuses %j, naming %s', (source, specifier) => {
    expect(refusedImport(source)).toContain(`it imports ${specifier}, which the hash you trust does not cover`);
  });

  it.each([["const h = await import('./hel' + 'per.mjs');"], ['const h = require(name);'], ['const h = await import(`./${name}`);']])('refuses %j: a module named at run time', (source) => {
    expect(refusedImport(source)).toMatch(/^it calls (import|require)\(\) with a module named at run time/);
  });
});

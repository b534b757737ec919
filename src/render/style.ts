// aish's styles: chalk at the level the colour policy (sgr.ts) gives.

import { Chalk, type ChalkInstance } from 'chalk';
import type { ColorLevel } from './sgr.js';

export { colorLevel, type ColorLevel } from './sgr.js';

export function createStyle(level: ColorLevel): ChalkInstance {
  return new Chalk({ level });
}

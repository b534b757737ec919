// Inline styles of the markdown renderer as bit masks, and the painter that turns a mask into SGR
// codes. A painted piece carries its own open and close codes, so nothing is left open between
// pushes; mask 0 and empty text come back unchanged.

import type { ChalkInstance } from 'chalk';

export const BOLD = 1;
export const ITALIC = 2;
export const UNDERLINE = 4;
export const STRIKE = 8;
export const CODE = 16;
export const LINK = 32;
export const URL = 64;
export const DIM = 128;

/** Wraps `s` in the styles of `mask`. */
export type Paint = (mask: number, s: string) => string;

/** A painter for one renderer; it caches one chalk chain per mask it has seen. */
export function createPainter(style: ChalkInstance): Paint {
  const paints = new Map<number, (s: string) => string>();
  return (mask, s) => {
    if (mask === 0 || s === '') return s;
    let paint = paints.get(mask);
    if (!paint) {
      let c = style;
      if (mask & BOLD) c = c.bold;
      if (mask & DIM) c = c.dim;
      if (mask & ITALIC) c = c.italic;
      if (mask & UNDERLINE) c = c.underline;
      if (mask & STRIKE) c = c.strikethrough;
      if (mask & CODE) c = c.yellow;
      if (mask & LINK) c = c.blue.underline;
      if (mask & URL) c = c.dim;
      const chain = c;
      paint = (text: string) => chain(text);
      paints.set(mask, paint);
    }
    return paint(s);
  };
}

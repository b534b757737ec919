// How a preview is shown (src/preview/): its output dimmed, its exit status, then what the
// command would delete, create and change (what is outside the tree under its own heading), with
// short diffs of changed text files, and the hidden places the command reached, which the preview
// could not show. Every part (the output, file names, diff lines) comes from outside and passes
// the renderer's sanitizer.

import type { PreviewResult } from '../preview/previewer.js';
import { changeLines, hiddenLine, PREVIEW_UNAVAILABLE } from '../preview/report.js';
import type { PreviewView } from '../preview/session-preview.js';
import { showSubject } from './question.js';
import type { Renderer } from './renderer.js';

/** Most lines of the preview's output shown: the first and last halves. */
const MAX_OUTPUT_LINES = 40;

export interface PreviewShown {
  result: PreviewResult;
  /** A changed file's path as the person knows it. */
  show: (file: string) => string;
  /** `undo.preview_timeout_ms`, named when the limit stopped the preview. */
  timeoutMs: number;
}

/** The view a session's previews are drawn in. */
export function previewView(render: Renderer, timeoutMs: number): PreviewView {
  return {
    // The command as the question showed it: whitespace runs counted, so padding cannot push it away.
    begin: (command) => render.status(`preview of '${showSubject(command, 'command')}' in a throwaway copy (no network; nothing it does is kept)`),
    end: (result, show) => drawPreview(render, { result, show, timeoutMs }),
  };
}

/** Draws a preview's result. */
export function drawPreview(render: Renderer, { result, show, timeoutMs }: PreviewShown): void {
  const { style } = render;
  switch (result.type) {
    case 'unavailable':
      render.status(PREVIEW_UNAVAILABLE);
      render.status(`(${result.why})`);
      return;
    case 'failed':
      render.error(`preview failed: ${result.why}`);
      return;
    case 'cancelled':
      render.status('preview cancelled');
      return;
  }
  for (const line of outputLines(result.output.text)) render.info(`  │ ${line}`, (s) => style.dim(s));
  if (result.timedOut) render.error(`preview stopped after ${timeoutMs} ms (undo.preview_timeout_ms); what it did until then:`);
  else render.status(`preview exit ${result.exitCode}`);
  const { lines, more } = changeLines(result.changes, show, undefined, result.tree);
  if (lines.length === 0) render.status('the preview changed no file');
  const paint = { delete: style.red, create: style.green, change: style.yellow } as const;
  const words = { delete: 'would delete', create: 'would create', change: 'would change' } as const;
  const tree = show(result.tree);
  for (const [i, line] of lines.entries()) {
    if (line.outside && !lines[i - 1]?.outside) render.info(`  outside ${tree === '.' ? 'this folder' : tree} (a real run writes there too):`, (s) => style.bold(s));
    render.info(`  ${words[line.kind]}  ${line.text}`, (s) => paint[line.kind](s));
  }
  if (more > 0 || !result.complete) render.info(`  … and ${more > 0 ? `${more} more` : 'more'}${result.complete ? '' : ' (not all were read)'}`, (s) => style.dim(s));
  for (const diff of result.diffs) {
    for (const line of diff.lines) render.info(`    ${line}`, (s) => diffPaint(style, line)(s));
    if (diff.more > 0) render.info(`    … ${diff.more} more lines of ${diff.label}`, (s) => style.dim(s));
  }
  // What the box hid, the preview cannot show: say so, so that an empty result does not reassure.
  for (const reach of result.hidden) render.error(hiddenLine(reach, show));
  render.status('nothing the preview did remains');
}

function outputLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.length <= MAX_OUTPUT_LINES) return lines;
  const half = MAX_OUTPUT_LINES / 2;
  return [...lines.slice(0, half), `… ${lines.length - MAX_OUTPUT_LINES} lines …`, ...lines.slice(-half)];
}

function diffPaint(style: Renderer['style'], line: string): (s: string) => string {
  if (line.startsWith('+++') || line.startsWith('---')) return style.bold;
  if (line.startsWith('@@')) return style.cyan;
  if (line.startsWith('+')) return style.green;
  if (line.startsWith('-')) return style.red;
  return (s) => s;
}

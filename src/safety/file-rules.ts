// Rules for commands that overwrite or remove files as a side effect: truncating redirections,
// `tee`, `cp`/`mv`/`install`/`ln -f` onto an existing file (`cp /dev/null file` empties it),
// `tar --remove-files` and `rsync --delete`. Whether a target exists is asked of `fileExists`;
// without it a redirection's or a `/dev/null` copy's target counts as existing.

import { hasOption, isSpelling, optionValues, scanOptions, type Call, type OptionSpec } from './command-line.js';
import type { Redirect } from './shell-lexer.js';

const TRUNCATING = new Set(['>', '>|', '&>', '>&']);
const HARMLESS_TARGET = /^\/dev\/(?:null|stdout|stderr|tty|fd\/\d+)$/;
const BLOCK_DEVICE = /^\/dev\/(?:sd|hd|vd|xvd|nvme|mmcblk|disk|md|dm-|loop|mapper\/)/;
/** A truncating redirection (`>`, `>|`, `&>`, `>& file`) to a file that exists or may. */
export function redirectReason(redirect: Redirect, fileExists?: (path: string) => boolean): string | undefined {
  const { op, target } = redirect;
  if (!TRUNCATING.has(op) || (op === '>&' && /^(?:\d+|-)$/.test(target.text))) return undefined;
  return overwriteReason(target.text, target.dynamic, 'truncating redirection to', fileExists);
}

function overwriteReason(target: string, dynamic: boolean, what: string, fileExists?: (path: string) => boolean): string | undefined {
  if (target === '' || HARMLESS_TARGET.test(target)) return undefined;
  if (BLOCK_DEVICE.test(target)) return blockDevice(target);
  if (!dynamic && fileExists && !fileExists(target)) return undefined;
  return `${what} ${target}`;
}

export function tee({ args, words, fileExists }: Call): string | undefined {
  const scanned = scanOptions(args);
  if (hasOption(scanned, 'a', '--append')) return undefined;
  for (const target of scanned.operands) {
    const dynamic = words.some((w) => w.text === target && w.dynamic);
    const reason = overwriteReason(target, dynamic, 'tee truncating', fileExists);
    if (reason) return reason;
  }
  return undefined;
}

const COPY_OPTIONS: OptionSpec = { value: 'gmoSt', longValue: ['--target-directory', '--suffix', '--group', '--mode', '--owner', '--strip-program'] };

/** `cp`, `mv`, `install` and `ln -f` replace a file that exists at the target. */
export function copyOnto({ name, args, words, fileExists }: Call): string | undefined {
  const scanned = scanOptions(args, COPY_OPTIONS);
  const keeps = hasOption(scanned, 'n', '--no-clobber', 'i', '--interactive', 'b', '--backup') || optionValues(scanned, '--update').includes('none');
  if (keeps || (name === 'ln' && !hasOption(scanned, 'f', '--force')) || (name === 'install' && hasOption(scanned, 'd', '--directory'))) return undefined;
  const { operands } = scanned;
  const dir = optionValues(scanned, 't', '--target-directory').at(-1);
  const sources = dir === undefined ? operands.slice(0, -1) : operands;
  const last = operands.at(-1) ?? '';
  let targets: string[];
  if (dir !== undefined) targets = sources.map((s) => (dir === '.' ? '' : `${dir.replace(/\/$/, '')}/`) + baseName(s));
  else if (name === 'ln' && operands.length === 1) targets = [baseName(last)];
  else targets = sources.length === 0 ? [] : last.endsWith('/') ? sources.map((s) => last + baseName(s)) : [last];
  const emptying = sources.includes('/dev/null');
  for (const target of targets) {
    const dynamic = words.some((w) => w.dynamic && target.includes(w.text));
    const what = emptying ? `${name} of /dev/null onto` : `${name} overwriting`;
    const reason = emptying || fileExists ? overwriteReason(target, dynamic, what, fileExists) : blockDevice(target);
    if (reason) return reason;
  }
  return undefined;
}

function baseName(path: string): string {
  return path.replace(/\/+$/, '').slice(path.replace(/\/+$/, '').lastIndexOf('/') + 1);
}

function blockDevice(target: string): string | undefined {
  return BLOCK_DEVICE.test(target) ? `writing to the block device ${target}` : undefined;
}

export function tar({ args }: Call): string | undefined {
  const removes = args.find((a) => isSpelling(a, '--remove-files') || isSpelling(a, '--recursive-unlink'));
  return removes === undefined ? undefined : `tar ${removes}`;
}

export function rsync({ args }: Call): string | undefined {
  const removes = args.find((a) => a.startsWith('--del') || isSpelling(a.split('=')[0]!, '--delete') || isSpelling(a, '--remove-source-files'));
  return removes === undefined ? undefined : `rsync ${removes.split('=')[0]}`;
}

// The `[project]` block's file tree (SPEC §11): tracked files as a compact indented tree, capped at
// a number of characters by folding the deepest directories first (`src/render/ (12 files)`), so
// the shape of a large repository still fits. Pure.

interface Dir {
  name: string;
  dirs: Map<string, Dir>;
  files: string[];
}

/** The tree of `files` (paths with `/`), at most `maxChars` long, directories first, sorted. */
export function formatTree(files: readonly string[], maxChars: number): string {
  const root = buildTree(files);
  for (let foldBelow = maxDepth(root); foldBelow >= 0; foldBelow--) {
    const text = render(root, foldBelow);
    if (text.length <= maxChars) return text;
  }
  // Even the top level alone is too long: keep the first entries that fit.
  const lines = render(root, 0).split('\n');
  const kept: string[] = [];
  let length = 0;
  for (const line of lines) {
    if (length + line.length + 40 > maxChars) break;
    kept.push(line);
    length += line.length + 1;
  }
  return [...kept, `… (${lines.length - kept.length} more entries)`].join('\n');
}

function buildTree(files: readonly string[]): Dir {
  const root: Dir = { name: '', dirs: new Map(), files: [] };
  for (const file of files) {
    const parts = file.split('/').filter(Boolean);
    let dir = root;
    for (const part of parts.slice(0, -1)) {
      let next = dir.dirs.get(part);
      if (!next) {
        next = { name: part, dirs: new Map(), files: [] };
        dir.dirs.set(part, next);
      }
      dir = next;
    }
    const last = parts.at(-1);
    if (last) dir.files.push(last);
  }
  return root;
}

function maxDepth(dir: Dir): number {
  let deepest = 0;
  for (const child of dir.dirs.values()) deepest = Math.max(deepest, 1 + maxDepth(child));
  return deepest;
}

function countFiles(dir: Dir): number {
  let n = dir.files.length;
  for (const child of dir.dirs.values()) n += countFiles(child);
  return n;
}

/** The tree as lines; directories at depth `foldBelow` or deeper show only their file count. */
function render(root: Dir, foldBelow: number): string {
  const lines: string[] = [];
  const walk = (dir: Dir, depth: number) => {
    const indent = '  '.repeat(depth);
    for (const child of [...dir.dirs.values()].sort((a, b) => a.name.localeCompare(b.name))) {
      if (depth >= foldBelow) {
        const n = countFiles(child);
        lines.push(`${indent}${child.name}/ (${n} file${n === 1 ? '' : 's'})`);
      } else {
        lines.push(`${indent}${child.name}/`);
        walk(child, depth + 1);
      }
    }
    for (const file of [...dir.files].sort((a, b) => a.localeCompare(b))) lines.push(`${indent}${file}`);
  };
  walk(root, 0);
  return lines.join('\n');
}

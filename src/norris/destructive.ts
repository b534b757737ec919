// Is a shell command destructive? (SPEC §11) A pure check with about twenty static patterns
// (rm -rf, dd of=, mkfs, force pushes, chown/chmod on root paths...) and wrapper patterns that
// hide a command from inspection (bash -c, sh -c, eval, `| sh`, python -c, xargs ... rm): a
// command the check cannot see through counts as destructive. False positives cost a question;
// false negatives cost data, so the check leans to "yes".

export interface DestructiveVerdict {
  destructive: boolean;
  /** Why, for the HALT gate: `rm -rf`, `hidden behind bash -c`, ... */
  reason?: string;
}

interface Rule {
  reason: string;
  test: RegExp;
}

// Word boundary that also accepts the start of a pipeline/list stage.
const S = String.raw`(?:^|[;&|(\n]\s*|\b(?:sudo|doas|exec|nohup|time|env(?:\s+\w+=\S*)*)\s+)`;

const STATIC: Rule[] = [
  { reason: 'rm -r / -f', test: new RegExp(`${S}rm\\s+(?:-[a-zA-Z]*[rRf][a-zA-Z]*\\b|--recursive\\b|--force\\b)`) },
  { reason: 'rm of a root, home or wildcard path', test: new RegExp(`${S}rm\\s+(?:-\\S+\\s+)*(?:/|~|\\*|\\$HOME)(?:\\s|$|/\\*?\\s*$)`) },
  { reason: 'find -delete', test: /\bfind\b[^|;&]*\s-delete\b/ },
  { reason: 'find -exec rm', test: /\bfind\b[^|;&]*-exec(?:dir)?\s+rm\b/ },
  { reason: 'dd writing to a device or file', test: /\bdd\b[^|;&]*\bof=/ },
  { reason: 'mkfs', test: new RegExp(`${S}mkfs(?:\\.\\w+)?\\b`) },
  { reason: 'disk partitioning', test: new RegExp(`${S}(?:fdisk|sfdisk|parted|gdisk|wipefs|sgdisk)\\b`) },
  { reason: 'shred', test: new RegExp(`${S}shred\\b`) },
  { reason: 'writing to a block device', test: />\s*\/dev\/(?:sd|hd|vd|nvme|mmcblk|disk)\w*/ },
  { reason: 'git push --force', test: /\bgit\s+push\b[^|;&]*(?:\s--force(?!-with-lease)\b|\s-f\b|\s\+\S+)/ },
  { reason: 'git reset --hard', test: /\bgit\s+reset\b[^|;&]*--hard\b/ },
  { reason: 'git clean -f', test: /\bgit\s+clean\b[^|;&]*\s-[a-zA-Z]*f/ },
  { reason: 'git branch -D', test: /\bgit\s+branch\b[^|;&]*\s-D\b/ },
  { reason: 'git checkout/restore discarding changes', test: /\bgit\s+(?:checkout\s+(?:--\s+)?\.|restore\s+(?:--\S+\s+)*\.)(?:\s|$)/ },
  { reason: 'chown/chmod on a root path', test: /\b(?:chown|chmod|chgrp)\b[^|;&]*\s(?:-R\s+)?[^\s]*\s+\/(?:\s|$|etc|usr|bin|sbin|lib|var|boot|home)\b/ },
  { reason: 'recursive chown/chmod', test: /\b(?:chown|chmod|chgrp)\s+(?:-\S*R\S*|--recursive)\b/ },
  { reason: 'truncating a file with >', test: /(?:^|[;&|]\s*)>\s*\S/ },
  { reason: 'shutting down or rebooting', test: new RegExp(`${S}(?:shutdown|reboot|halt|poweroff|init\\s+[06])\\b`) },
  { reason: 'killing every process', test: /\bkill(?:all)?\s+(?:-\S+\s+)*-1\b|\bpkill\s+(?:-\S+\s+)*\./ },
  { reason: 'a fork bomb', test: /:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:/ },
  { reason: 'dropping a database', test: /\bdrop\s+(?:database|table|schema)\b/i },
  { reason: 'removing containers, volumes or images wholesale', test: /\bdocker\s+(?:system\s+prune|volume\s+(?:rm|prune)|rmi\b|rm\s+-f)/ },
  { reason: 'mv to /dev/null', test: /\bmv\b[^|;&]*\s\/dev\/null\b/ },
  { reason: 'overwriting a system file', test: />\s*\/(?:etc|boot|usr|bin|sbin|lib)\// },
];

const WRAPPERS: Rule[] = [
  { reason: 'hidden behind a shell -c', test: /\b(?:ba|z|da|k|fi)?sh\s+(?:-\S+\s+)*-[a-zA-Z]*c\b/ },
  { reason: 'hidden behind eval', test: new RegExp(`${S}eval\\b`) },
  { reason: 'piped into a shell', test: /\|\s*(?:sudo\s+)?(?:ba|z|da|k)?sh\b/ },
  { reason: 'hidden behind an interpreter -c/-e', test: /\b(?:python[\d.]*|perl|ruby|node|php)\s+(?:-\S+\s+)*-(?:c|e|E|r)\b/ },
  { reason: 'xargs running a destructive command', test: /\bxargs\b[^|;&]*\b(?:rm|shred|dd|mkfs|chmod|chown|kill)\b/ },
  { reason: 'a command substitution running a script', test: /(?:source|\.)\s+<\(/ },
];

/** Whether `command` should stop at the HALT gate, and why. Pure. */
export function isDestructive(command: string): DestructiveVerdict {
  const text = command.trim();
  for (const rule of STATIC) if (rule.test.test(text)) return { destructive: true, reason: rule.reason };
  for (const rule of WRAPPERS) if (rule.test.test(text)) return { destructive: true, reason: rule.reason };
  return { destructive: false };
}

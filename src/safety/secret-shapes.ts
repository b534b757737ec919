// Secrets found by their shape, in any text: secretlint's recommended rules
// (@secretlint/secretlint-rule-preset-recommend, MIT) run through their own rule API, plus the
// shapes that preset leaves out: tokens of providers it does not know (JWTs, Stripe, Google API
// keys, GitLab; the regular expressions of gitleaks' rules of the same names), a private key in
// base64, the places tokens are kept in (`.netrc`, docker's config.json, a kubeconfig), an
// `Authorization:` header, a password given on a command line, credentials in any URL. Pure: the rules are handed in (src/secret-rules.ts loads them); each
// finding is a span of the text and the kind of secret it holds (`aws-access-key`).

import type { SecretLintRuleContext, SecretLintRuleCreator, SecretLintRuleReportDescriptor, SecretLintSourceCode } from '@secretlint/types';

/** A secret in a text: `text.slice(start, end)` is the secret, `kind` what it is. */
export interface SecretSpan {
  start: number;
  end: number;
  kind: string;
}

/** Finds the secrets by shape in a text as `scanView` gives it. Throws only when the rules cannot be loaded. */
export type ShapeScan = (view: string) => SecretSpan[];

/**
 * Rules of the preset not run: `gcp` parses the whole text as JSON and reports all of it (its
 * private key is caught by `privatekey` anyway) or reads a file; `filter-comments` obeys
 * `secretlint-disable` comments, which a command's output or a model could carry to switch
 * detection off.
 */
const SKIPPED_RULES = new Set(['@secretlint/secretlint-rule-gcp', '@secretlint/secretlint-rule-filter-comments']);
/** Options given to the preset's rules: AWS access key ids are scanned too (off by default there). */
const RULE_OPTIONS: Record<string, object> = { '@secretlint/secretlint-rule-aws': { enableIDScanRule: true } };
/**
 * The kind each of the preset's messages names. A message not listed (a rule added in a later
 * version) is named after itself, `SOME_TOKEN` → `some-token`.
 */
const KINDS: Record<string, string> = {
  AWSAccessKeyID: 'aws-access-key',
  AWSSecretAccessKey: 'aws-secret-key',
  GITHUB_TOKEN: 'github-token',
  OPENAI_TOKEN: 'openai-key',
  ANTHROPIC_API_KEY: 'anthropic-key',
  SLACK_TOKEN: 'slack-token',
  IncomingWebhook: 'slack-webhook',
  PrivateKey: 'private-key',
  BasicAuth: 'url-password',
  MongoDBConnection: 'database-password',
  MySQLConnection: 'database-password',
  PostgreSQLConnection: 'database-password',
  SENDGRID_KEY: 'sendgrid-key',
  SHOPIFY_KEY: 'shopify-key',
  LINEAR_API_TOKEN: 'linear-key',
  OPS_TOKEN: '1password-token',
  NPM_ACCESS_TOKEN: 'npm-token',
};
/** Messages that name no secret: an AWS account id is an identifier, not a credential. */
const NOT_SECRET = new Set(['AWSAccountID']);
/** The message data that holds the secret itself, in the preset's rules. */
const QUOTED_KEYS = ['KEY', 'TOKEN', 'ID', 'URI', 'CREDENTIAL', 'URL'];
/** Kinds whose finding is a whole URL, of which only the password is the secret. */
const URL_KINDS = new Set(['url-password', 'database-password']);
/** The password of `scheme://user:password@`. */
const URL_PASSWORD = /^[A-Za-z][A-Za-z0-9+.:-]*?:\/\/[^:@/\s]*:([^@/\s]+)@/;

/**
 * Shapes the preset does not know, each with the group that holds the secret (`secret`, or
 * `quoted` inside single quotes) and, for a shape that ordinary text can have too, a check of the
 * secret it found.
 */
const OWN_SHAPES: readonly { pattern: RegExp; kind: (m: RegExpMatchArray) => string; accept?: (secret: string) => boolean }[] = [
  // A JWT (gitleaks `jwt`): header and claims are base64url JSON objects, so both start `ey`
  // (`{"`); the signature may be missing (an unsigned token ends with the dot).
  { pattern: /\b(?<secret>ey[A-Za-z0-9_-]{17,}\.ey[A-Za-z0-9_-]{17,}\.(?:[A-Za-z0-9_-]{10,}={0,2})?)/dg, kind: () => 'jwt' },
  // Stripe secret and restricted keys, live and test (gitleaks `stripe-access-token`).
  { pattern: /\b(?<secret>[sr]k_(?:live|test|prod)_[A-Za-z0-9]{10,99})(?![A-Za-z0-9])/dg, kind: () => 'stripe-key' },
  // Google API keys (gitleaks `gcp-api-key`).
  { pattern: /\b(?<secret>AIza[A-Za-z0-9_-]{35})(?![A-Za-z0-9_-])/dg, kind: () => 'google-api-key' },
  // GitLab personal, deploy, runner, trigger, feed, CI-build, incoming-mail, OAuth-app and agent
  // tokens (gitleaks `gitlab-*`), and the routable ones that end `.01.<crc>`.
  {
    pattern: /\b(?<secret>gl(?:pat|dt|rt|ptt|ft|cbt|imt|oas|soat|agent)-[A-Za-z0-9_-]{20,}(?:\.[0-9a-z]{2,9}){0,2})(?![A-Za-z0-9_-])/dg,
    kind: () => 'gitlab-token',
  },
  // `.netrc` (curl, git, ftp, pip): `machine HOST login USER password SECRET`, on one line or several.
  {
    pattern: /\b(?:machine\s+\S+|default)(?:\s+(?:login|account|port)\s+\S+)*\s+passw(?:or)?d\s+(?:'(?<quoted>[^'\n]+)'|(?![$<{*])(?<secret>\S+))/dg,
    kind: () => 'password',
  },
  // Docker's config.json: `"auth": "<base64 of user:password>"`, and the registry tokens beside it.
  { pattern: /(?<![\w-])auth\s*:\s*(?<secret>[A-Za-z0-9+/]{8,}={0,2})(?![\w+/=])/dg, kind: () => 'docker-auth', accept: isBase64Credentials },
  { pattern: /(?<![\w-])(?:identitytoken|registrytoken)\s*:\s*(?<secret>[A-Za-z0-9._~+/-]{16,}=*)/dg, kind: () => 'docker-auth' },
  // A kubeconfig's user (`token:`, an auth provider's `id-token:`, `refresh-token:`,
  // `client-secret:`, `password:`), and the same keys in YAML or pretty-printed JSON anywhere;
  // placeholders (`${{ secrets.X }}`, `<token>`, `***`) are left. `client-key-data:` is a private
  // key in base64 (below).
  {
    pattern: /^[ \t]*(?:- )?(?<key>token|id-token|refresh-token|access-token|client-secret|password)[ \t]*:[ \t]+(?![$<{*[])(?<secret>[^\s'"]{8,})/dgm,
    kind: (m) => (m.groups?.key === 'password' ? 'password' : 'token'),
  },
  // `sshpass -p <password>` (its own options first, then the command it runs).
  {
    pattern: /\bsshpass(?:[ \t]+(?:-[fdP][ \t]*\S+|-[evhV]+))*[ \t]+-p[ \t]*(?:'(?<quoted>[^'\n]+)'|(?<secret>[^\s'"\\]+))/dg,
    kind: () => 'password',
  },
  // `redis-cli -a <password>` (and valkey-cli, keydb-cli).
  {
    pattern: /\b(?:redis|valkey|keydb)-cli\b[^\n;|&]{0,200}?\s-a[ \t]+(?:'(?<quoted>[^'\n]+)'|(?<secret>[^\s'"\\]+))/dg,
    kind: () => 'password',
  },
  // Samba's clients: `-U user%password`, `--user=DOMAIN\\user%password`.
  {
    pattern: /\b(?:smbclient|rpcclient|smbcacls|smbget|smbtree|smbmap|smbpasswd|net)\b[^\n;|&]{0,200}?\s(?:-U|--user(?:name)?)(?:[ \t]+|=)?'?[^\s%'"]+%(?<secret>[^\s'"]+)/dg,
    kind: () => 'password',
  },
  // `Authorization: Bearer <token>` (any scheme, or none), and a bare `Bearer <token>` that has
  // a digit in it (prose says "Bearer authentication").
  {
    pattern: /\b(?:(?:Proxy-)?Authorization\s*:\s*(?:(Bearer|Basic|Token|Bot|ApiKey|Api-Key)\s+)?|(Bearer)\s+(?=[^\s]*\d))(?<secret>[A-Za-z0-9._~+/-]{8,}=*)/dgi,
    kind: (m) => authorizationKind(m[1] ?? m[2]),
  },
  // `--password=secret` or `--password secret` to any program, `--passwd`, `--pass`.
  { pattern: /(?<![\w-])--pass(?:word|wd)?(?:=|\s+)(?!-)(?:'(?<quoted>[^'\n]+)'|(?<secret>[^\s'"\\]+))/dg, kind: () => 'password' },
  // The MySQL clients' `-p<password>` (joined to the option: `-p` alone asks for it).
  {
    pattern: /\b(?:mysql[\w-]*|mariadb[\w-]*|mycli)\b[^\n;|&]{0,200}?\s-p(?:'(?<quoted>[^'\n]+)'|(?<secret>[^\s'"\\]+))/dg,
    kind: () => 'password',
  },
  // curl and wget with `-u user:password` or `--user user:password`.
  { pattern: /\b(?:curl|wget)\b[^\n;|&]{0,500}?\s(?:-u|--user|--http-user)(?:\s+|=)?'?[^\s:'"]+:(?<secret>[^\s'"\\]+)/dg, kind: () => 'password' },
  // Credentials in any URL (`redis://:pw@host`, `amqp://u:pw@rabbit:5672`, `https://u:p@localhost`),
  // besides the preset's http and database URLs; placeholders (`$PASS`, `{pass}`, `<pass>`, `***`) are left.
  { pattern: /\b[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s:@/"'<>]*:(?<secret>(?![$<{*]|x+@)[^\s@/"'<>]+)@/dg, kind: () => 'url-password' },
];

function authorizationKind(scheme: string | undefined): string {
  const s = scheme?.toLowerCase();
  if (s === 'bearer') return 'bearer-token';
  if (s === 'basic') return 'basic-auth';
  return 'authorization';
}

/**
 * A scanner over `rules` (the preset's, as `loadRules` gives them when first needed). It is given
 * the text as `scanView` makes it.
 */
export function createShapeScan(loadRules: () => readonly SecretLintRuleCreator[]): ShapeScan {
  let handlers: PresetHandlers | undefined;
  return (view) => {
    if (view.length < 8) return [];
    handlers ??= presetHandlers(loadRules());
    return [...handlers.scan(view), ...ownShapes(view)];
  };
}

/**
 * The text as it is scanned: each ESC and terminal control sequence (`ESC[1;31m`, raw or JSON-escaped),
 * JSON string escape (`\n`, `\"`, `\u00e9`) and `"` blanked out by as many spaces, so spans found
 * in it fit the text as given. A token after `\n` in a serialised request body or session line,
 * or painted by a colour code, then still starts a word, and no finding runs across the end of a
 * JSON string. An escape escaped again (`\\n`: JSON inside a JSON string, as tool call arguments
 * in a request body) is blanked whole as well. Plain text loses nothing a secret is made of.
 */
export function scanView(text: string): string {
  if (!/["\\\x1b]/.test(text)) return text;
  // An escaped newline stays a line end, so a rule that keeps to one line still does.
  return text.replace(BLANKED, (m) => (m.endsWith('\\n') ? `${' '.repeat(m.length - 1)}\n` : ' '.repeat(m.length)));
}

// eslint-disable-next-line no-control-regex
const BLANKED = /(?:\x1b|\\+u001[bB])(?:\[[0-?]*[ -/]*[@-~])?|\\+(?:u[0-9a-fA-F]{4}|[^])|"/g;

interface PresetHandlers {
  scan(view: string): SecretSpan[];
}

/** The preset's rules, created once, reporting into the scan under way (they run synchronously). */
function presetHandlers(rules: readonly SecretLintRuleCreator[]): PresetHandlers {
  let sink: SecretLintRuleReportDescriptor[] = [];
  const context: SecretLintRuleContext = {
    sharedOptions: {},
    createTranslator: () => (messageId, data) => ({ message: String(messageId), messageId: String(messageId), data }),
    report: (descriptor) => sink.push(descriptor),
    ignore: () => undefined,
  };
  const files = rules.filter((rule) => !SKIPPED_RULES.has(rule.meta.id)).flatMap((rule) => {
    const file = rule.create(context, RULE_OPTIONS[rule.meta.id] ?? {}).file;
    return file ? [file] : [];
  });
  return {
    scan(view) {
      const found: SecretLintRuleReportDescriptor[] = [];
      sink = found;
      const source = sourceCode(view);
      for (const file of files) {
        try {
          // A rule that answers later (a Promise) reported nothing it needs here: those read files.
          void Promise.resolve(file(source)).catch(() => undefined);
        } catch {
          // One rule's failure must not stop the others.
        }
      }
      sink = [];
      return found.flatMap((d) => spanOf(view, d));
    },
  };
}

/** Where the secret of a report is: the value the message names, found from the report's start. */
function spanOf(view: string, report: SecretLintRuleReportDescriptor): SecretSpan[] {
  const { messageId, data } = report.message;
  if (NOT_SECRET.has(messageId)) return [];
  const kind = KINDS[messageId] ?? kebab(messageId);
  const [from, to] = report.range;
  let start = from;
  let end = to;
  // The range may not be the secret's own (the AWS rule reports from the key's name), so the
  // value the message quotes is looked for from the range's start.
  const quoted = data ?? {};
  for (const value of [...QUOTED_KEYS.map((k) => quoted[k]), ...Object.values(quoted)]) {
    if (typeof value !== 'string' || value === '') continue;
    const at = view.indexOf(value, from);
    if (at >= 0 && at <= Math.max(from, to)) {
      start = at;
      end = at + value.length;
      break;
    }
  }
  if (URL_KINDS.has(kind)) {
    const m = URL_PASSWORD.exec(view.slice(start, end));
    if (!m?.[1]) return [];
    start += m[0].length - 1 - m[1].length;
    end = start + m[1].length;
  }
  return end > start ? [{ start, end, kind }] : [];
}

function ownShapes(view: string): SecretSpan[] {
  const spans: SecretSpan[] = [];
  for (const { pattern, kind, accept } of OWN_SHAPES) {
    for (const m of view.matchAll(pattern)) {
      const at = m.indices?.groups?.secret ?? m.indices?.groups?.quoted;
      if (at && (!accept || accept(view.slice(at[0], at[1])))) spans.push({ start: at[0], end: at[1], kind: kind(m) });
    }
  }
  return [...spans, ...pemPieces(view), ...base64Pems(view)];
}

/** Whether `text` is base64 of `user:password` (printable), as docker keeps a registry login. */
function isBase64Credentials(text: string): boolean {
  const decoded = Buffer.from(text, 'base64').toString('latin1');
  return /^[\x21-\x7e]+:[\x20-\x7e]+$/.test(decoded) && !decoded.startsWith(':');
}

/** `-----BEGIN` in base64, at the start of a word. */
const PEM_BASE64 = /(?<![A-Za-z0-9+/])LS0tLS1CRUdJTi[A-Za-z0-9+/]*={0,2}/g;
const isBase64Char = (code: number) => (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39) || code === 0x2b || code === 0x2f || code === 0x3d;

/**
 * A PEM private key written as base64 (a kubeconfig's `client-key-data:`, a Kubernetes secret's
 * `tls.key:`, `base64 key.pem`): base64 whose text starts `-----BEGIN … PRIVATE KEY`, through the
 * lines it wraps onto. A certificate in base64 (`certificate-authority-data:`) is public and left.
 */
function base64Pems(view: string): SecretSpan[] {
  const spans: SecretSpan[] = [];
  for (const m of view.matchAll(PEM_BASE64)) {
    const head = Buffer.from(m[0].slice(0, 80), 'base64').toString('latin1');
    if (!/^-----BEGIN [A-Z0-9 ]*PRIVATE KEY/.test(head)) continue;
    let end = m.index + m[0].length;
    // Wrapped output (`base64` writes 76 columns, PEM and openssl 64): a line as long as the
    // first goes on with the next one, which is no longer.
    const width = m[0].length;
    for (let line = width; width >= 60 && width <= 128 && line === width; ) {
      // Inside a JSON string the view has the escaped line end as a space and a newline.
      const eol = /^[ \r]*\n/.exec(view.slice(end, end + 8));
      if (!eol) break;
      const next = end + eol[0].length;
      let stop = next;
      while (stop < view.length && isBase64Char(view.charCodeAt(stop))) stop++;
      if (stop === next || stop - next > width) break;
      line = stop - next;
      end = stop;
    }
    spans.push({ start: m.index, end, kind: 'private-key' });
  }
  return spans;
}

const PEM_BEGIN = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/g;
const PEM_END = /-----END [A-Z0-9 ]*PRIVATE KEY-----/g;
/** Base64 and the white space between its lines (JSON's `\n` is blanked to spaces in the view). */
const isPemBody = (code: number) =>
  (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39) || code === 0x2b || code === 0x2f || code === 0x3d || code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;

/**
 * A private key's body, also when only a piece of it is there (`head -5 ~/.ssh/id_rsa`, output cut
 * between its head and tail): the base64 after a BEGIN line up to whatever ends it, and the base64
 * before an END line back to whatever starts it. The preset finds only whole blocks. Walked by
 * hand from each marker, so a megabyte of base64 costs one pass.
 */
function pemPieces(view: string): SecretSpan[] {
  const spans: SecretSpan[] = [];
  for (const m of view.matchAll(PEM_BEGIN)) {
    const start = m.index + m[0].length;
    let end = start;
    while (end < view.length && isPemBody(view.charCodeAt(end))) end++;
    if (end - start >= 16) spans.push({ start, end, kind: 'private-key' });
  }
  for (const m of view.matchAll(PEM_END)) {
    let start = m.index;
    while (start > 0 && isPemBody(view.charCodeAt(start - 1))) start--;
    if (m.index - start >= 16) spans.push({ start, end: m.index, kind: 'private-key' });
  }
  return spans;
}

function kebab(id: string): string {
  return id
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .toLowerCase();
}

/** The little of secretlint's source object the rules use: the text, with no file behind it. */
function sourceCode(content: string): SecretLintSourceCode {
  const lineStarts = (): number[] => {
    const starts = [0];
    for (let i = content.indexOf('\n'); i >= 0; i = content.indexOf('\n', i + 1)) starts.push(i + 1);
    return starts;
  };
  const indexToPosition = (index: number) => {
    const starts = lineStarts();
    let line = 0;
    while (line + 1 < starts.length && starts[line + 1]! <= index) line++;
    return { line: line + 1, column: index - starts[line]! };
  };
  const positionToIndex = (pos: { line: number; column: number }) => (lineStarts()[pos.line - 1] ?? content.length) + pos.column;
  return {
    hasBOM: false,
    content,
    filePath: undefined,
    physicalFilePath: undefined,
    contentType: 'text',
    ext: '',
    getFilePath: () => undefined,
    getPhysicalFilePath: () => undefined,
    indexToPosition,
    positionToIndex,
    locationToRange: (loc) => [positionToIndex(loc.start), positionToIndex(loc.end)],
    rangeToLocation: (range) => ({ start: indexToPosition(range[0]), end: indexToPosition(range[1]) }),
  };
}

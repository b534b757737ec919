// A corpus of hostile terminal sequences (what a model, a tool, a server or an error body might
// carry) with what the person must see instead, and the pattern of any raw control character.

/** Hostile sequences a model, tool, server or error body might carry, with what the person sees. */
export const HOSTILE: readonly [string, string, string][] = [
  ['CSI clear screen', '\x1b[2J', '^[[2J'],
  ['CSI cursor up and erase line', '\x1b[1A\x1b[2K', '^[[1A^[[2K'],
  ['CSI colour', '\x1b[31mred', '^[[31mred'],
  ['OSC 0 title (BEL)', '\x1b]0;pwned\x07', '^[]0;pwned^G'],
  ['OSC 8 hyperlink (ST)', '\x1b]8;;http://evil\x1b\\click\x1b]8;;\x1b\\', '^[]8;;http://evil^[\\click^[]8;;^[\\'],
  ['OSC 52 clipboard', '\x1b]52;c;cm0gLXJmIH4=\x07', '^[]52;c;cm0gLXJmIH4=^G'],
  ['DCS', '\x1bPq#0;2;0;0;0\x1b\\', '^[Pq#0;2;0;0;0^[\\'],
  ['APC', '\x1b_Gpayload\x1b\\', '^[_Gpayload^[\\'],
  ['C1 CSI (8-bit)', '\x9b2J', '\\x9b2J'],
  ['C1 OSC (8-bit)', '\x9d0;title\x9c', '\\x9d0;title\\x9c'],
  ['C1 DCS and APC', '\x90q\x9f', '\\x90q\\x9f'],
  ['bidi override RLO', 'txt\u202eexe.sh', 'txt\\u202eexe.sh'],
  ['bidi isolates', '\u2066a\u2067b\u2068c\u2069', '\\u2066a\\u2067b\\u2068c\\u2069'],
  ['bidi marks', '\u200e\u200f\u061c', '\\u200e\\u200f\\u061c'],
  ['bidi embeddings', '\u202a\u202b\u202c\u202d', '\\u202a\\u202b\\u202c\\u202d'],
  ['backspace overprinting', 'rm -rf /\x08\x08\x08\x08\x08\x08\x08\x08ls     ', 'rm -rf /^H^H^H^H^H^H^H^Hls     '],
  ['carriage-return overprinting', 'rm -rf ~\rls -la   ', 'rm -rf ~^Mls -la   '],
  ['NUL, BEL, DEL, form feed, vertical tab', 'a\x00b\x07c\x7fd\x0ce\x0bf', 'a^@b^Gc^?d^Le^Kf'],
  ['zero-width space inside a command', 'rm\u200b -rf', 'rm<U+200B> -rf'],
  ['word joiner, soft hyphen, BOM', 'a\u2060b\u00adc\ufeffd', 'a<U+2060>b<U+00AD>c<U+FEFF>d'],
  ['tag characters spelling hidden ASCII', 'ok\u{e0072}\u{e006d}', 'ok<U+E0072><U+E006D>'],
  ['config key that sets the title and clears the screen', '\x1b]0;pwned\x07\x1b[2J', '^[]0;pwned^G^[[2J'],
];

/**
 * Any byte a terminal would act on (C0 but newline and tab, DEL, C1, bidi controls) or a
 * character it would not show (zero-width space, word joiner, soft hyphen, BOM, tag characters).
 */
// eslint-disable-next-line no-control-regex
export const RAW_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]|[\u00ad\u180e\u200b\u2060-\u2064\ufeff\ufff9-\ufffb\u{e0000}-\u{e007f}]/u;

/**
 * Text from outside that hides a secret from a redactor that reads naively, built around a fake
 * secret `s` (test/support/fake-secrets.ts): each must still come out redacted.
 */
export const HOSTILE_SECRETS: readonly [string, (s: string) => string][] = [
  ['painted by colour codes', (s) => `\x1b[1;31m${s}\x1b[0m`],
  ['after a JSON-escaped colour code', (s) => JSON.stringify({ content: `\x1b[32m${s}` })],
  ['after a JSON-escaped newline', (s) => JSON.stringify({ content: `line\n${s}` })],
  ['after a JSON-escaped quote', (s) => JSON.stringify({ content: `say "${s}"` })],
  ['in tool call arguments inside a request body (JSON in JSON)', (s) => JSON.stringify({ arguments: JSON.stringify({ text: `a\n${s}` }) })],
  ['after secretlint-disable comments', (s) => `# secretlint-disable\n// secretlint-disable-next-line\n${s}\n<!-- secretlint-disable-line --> ${s}`],
  ['inside a hyperlink sequence', (s) => `\x1b]8;;https://example.org/?t=${s}\x07link\x1b]8;;\x07`],
  ['after a zero-width space', (s) => `token:\u200b${s}`],
  ['behind carriage-return overprinting', (s) => `${s}\rnothing to see here`],
  ['in a query string', (s) => `GET /api?access_token=${s}&x=1`],
  ['with CRLF line ends', (s) => `first\r\n${s}\r\nlast`],
];

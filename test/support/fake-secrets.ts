// Fake secrets in the shapes real ones have, built at run time from parts (so no secret scanner
// flags this repository, and no real credential is ever in it), with the kind each is redacted as.
// Shared by the redactor's unit tests, the end-to-end tests and the bench.

/** `n` characters of `alphabet`, deterministic for `seed`, starting with FAKE where it fits. */
function filler(alphabet: string, n: number, seed: number): string {
  let out = [...'FAKE'].every((c) => alphabet.includes(c)) ? 'FAKE' : '';
  let x = seed;
  while (out.length < n) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out += alphabet[(x >>> 16) % alphabet.length];
  }
  return out.slice(0, n);
}

const UPPER_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const BASE64 = `${ALNUM}+/`;

/** The parts of a PEM block's header and footer, kept apart so the file holds no key marker. */
const PEM_WORD = ['PRIV', 'ATE KEY'].join('');

export interface FakeSecret {
  /** What the tests call it. */
  name: string;
  /** The secret itself: what must not appear once redacted. */
  value: string;
  /** How it appears in text (a line of a file, a command line). */
  text: string;
  /** The placeholder it becomes. */
  redacted: string;
}

export function fakeSecrets(): FakeSecret[] {
  const awsId = ['AK', 'IA'].join('') + filler(UPPER_DIGITS, 16, 1);
  const awsSecret = filler(BASE64, 40, 2);
  const ghp = ['gh', 'p_'].join('') + filler(ALNUM, 36, 3);
  const ghPat = ['github', '_pat_'].join('') + filler(`${ALNUM}_`, 82, 4);
  const openaiProject = ['sk-', 'proj-'].join('') + filler(`${ALNUM}_-`, 74, 5) + ['T3Blbk', 'FJ'].join('') + filler(`${ALNUM}_-`, 74, 6);
  const openaiLegacy = 'sk-' + filler(ALNUM, 20, 7) + ['T3Blbk', 'FJ'].join('') + filler(ALNUM, 20, 8);
  const slack = ['xo', 'xb-'].join('') + '2048' + filler('0123456789', 9, 9) + '-4096' + filler('0123456789', 9, 10) + '-' + filler(ALNUM, 24, 11);
  const pemBody = `MII${filler(BASE64, 61, 12)}\n${filler(BASE64, 64, 13)}\n${filler(BASE64, 64, 14)}\n${filler(BASE64, 20, 15)}==`;
  const pem = `-----BEGIN RSA ${PEM_WORD}-----\n${pemBody}\n-----END RSA ${PEM_WORD}-----`;
  const bearer = `eyJ${filler(ALNUM, 20, 16)}.${filler(ALNUM, 30, 17)}9.${filler(ALNUM, 22, 18)}`;
  const mysqlPassword = `Tr0ub4dor-${filler(ALNUM, 6, 19)}`;
  const urlPassword = `pw${filler(ALNUM, 12, 20)}`;
  const dbPassword = `Dbp4ss${filler(ALNUM, 10, 21)}`;
  return [
    { name: 'AWS access key id', value: awsId, text: `aws_access_key_id = ${awsId}`, redacted: '[redacted:aws-access-key]' },
    { name: 'AWS secret access key', value: awsSecret, text: `aws_secret_access_key = ${awsSecret}`, redacted: '[redacted:aws-secret-key]' },
    { name: 'GitHub classic token', value: ghp, text: `token: ${ghp}`, redacted: '[redacted:github-token]' },
    { name: 'GitHub fine-grained token', value: ghPat, text: `${ghPat}`, redacted: '[redacted:github-token]' },
    { name: 'OpenAI project key', value: openaiProject, text: `openai key ${openaiProject}`, redacted: '[redacted:openai-key]' },
    { name: 'OpenAI key', value: openaiLegacy, text: `key=${openaiLegacy};`, redacted: '[redacted:openai-key]' },
    { name: 'Slack bot token', value: slack, text: `slack: ${slack}`, redacted: '[redacted:slack-token]' },
    { name: 'PEM private key block', value: pemBody.split('\n')[1]!, text: pem, redacted: '[redacted:private-key]' },
    { name: 'Authorization: Bearer header', value: bearer, text: `curl -H "Authorization: Bearer ${bearer}" https://api.example.org/v1`, redacted: '[redacted:bearer-token]' },
    { name: 'mysql -p<password>', value: mysqlPassword, text: `mysql -u root -p${mysqlPassword} shop`, redacted: '[redacted:password]' },
    { name: 'URL with user:password@', value: urlPassword, text: `git clone https://deploy:${urlPassword}@git.example.org/app.git`, redacted: '[redacted:url-password]' },
    { name: 'export DB_URL=postgres://user:password@', value: dbPassword, text: `export DB_URL=postgres://app:${dbPassword}@db.internal:5432/app`, redacted: '[redacted:database-password]' },
  ];
}

/** A ~/.aws/credentials (and friends) file of fake secrets, as a command might print it. */
export function fakeCredentialsFile(): { text: string; secrets: FakeSecret[] } {
  const all = fakeSecrets();
  const pick = (name: string) => all.find((s) => s.name === name)!;
  const secrets = ['AWS access key id', 'AWS secret access key', 'GitHub classic token', 'OpenAI project key', 'Slack bot token', 'PEM private key block'].map(pick);
  const text = ['[default]', ...secrets.map((s) => s.text), 'region = eu-west-1', ''].join('\n');
  return { text, secrets };
}

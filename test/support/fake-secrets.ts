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
const BASE64URL = `${ALNUM}_-`;

/** `text` as base64url without padding (a JWT's parts). */
const base64url = (text: string) => Buffer.from(text).toString('base64url');

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
  // A JWT: a header and a claims object (both start `eyJ`, base64url of `{"`) and a signature.
  const jwt = `${base64url('{"alg":"HS256","typ":"JWT"}')}.${base64url('{"sub":"fake-user","iat":1700000000}')}.${filler(BASE64URL, 43, 22)}`;
  const stripeLive = ['sk', '_live_'].join('') + filler(ALNUM, 24, 23);
  const stripeRestricted = ['rk', '_live_'].join('') + filler(ALNUM, 24, 24);
  const stripeTest = ['sk', '_test_'].join('') + filler(ALNUM, 24, 25);
  const google = ['AI', 'za'].join('') + filler(BASE64URL, 35, 26);
  const gitlab = ['gl', 'pat-'].join('') + filler(BASE64URL, 20, 27);
  // A PEM private key as base64 (a kubeconfig's client-key-data, a Kubernetes secret, `base64 key.pem`).
  const pemBase64 = Buffer.from(`${pem}\n`).toString('base64');
  const netrcPassword = `Netrc-${filler(ALNUM, 10, 28)}`;
  const netrcInline = `nrc${filler(ALNUM, 9, 29)}`;
  const dockerAuth = Buffer.from(`deploy:Dock3r-${filler(ALNUM, 10, 30)}`).toString('base64');
  const kubeToken = filler(ALNUM, 32, 31);
  const sshpass = `Sshp-${filler(ALNUM, 9, 32)}`;
  const redis = `Red1s${filler(ALNUM, 11, 33)}`;
  const smb = `Smb-${filler(ALNUM, 10, 34)}`;
  const psql = `Pg${filler(ALNUM, 12, 35)}`;
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
    { name: 'JWT', value: jwt, text: `Cookie: session=${jwt}; Path=/`, redacted: '[redacted:jwt]' },
    { name: 'Stripe live secret key', value: stripeLive, text: `stripe key ${stripeLive}`, redacted: '[redacted:stripe-key]' },
    { name: 'Stripe restricted key', value: stripeRestricted, text: `curl https://api.stripe.com/v1/charges -u ${stripeRestricted}:`, redacted: '[redacted:stripe-key]' },
    { name: 'Stripe test key', value: stripeTest, text: `Stripe.apiKey = "${stripeTest}";`, redacted: '[redacted:stripe-key]' },
    { name: 'Google API key', value: google, text: `https://maps.googleapis.com/maps/api/geocode/json?address=x&key=${google}`, redacted: '[redacted:google-api-key]' },
    { name: 'GitLab personal access token', value: gitlab, text: `glab auth login --token ${gitlab}`, redacted: '[redacted:gitlab-token]' },
    { name: 'PEM private key in base64 (kubeconfig client-key-data)', value: pemBase64.slice(40, 120), text: `    client-key-data: ${pemBase64}`, redacted: '[redacted:private-key]' },
    { name: '.netrc password (lines)', value: netrcPassword, text: `machine api.example.org\n  login deploy\n  password ${netrcPassword}`, redacted: '[redacted:password]' },
    { name: '.netrc password (one line)', value: netrcInline, text: `machine git.example.org login deploy password ${netrcInline}`, redacted: '[redacted:password]' },
    { name: 'docker config.json auth', value: dockerAuth, text: `{\n  "auths": {\n    "registry.example.org": {\n      "auth": "${dockerAuth}"\n    }\n  }\n}`, redacted: '[redacted:docker-auth]' },
    { name: 'kubeconfig token', value: kubeToken, text: `users:\n- name: deploy\n  user:\n    token: ${kubeToken}`, redacted: '[redacted:token]' },
    { name: 'sshpass -p <password>', value: sshpass, text: `sshpass -p ${sshpass} ssh deploy@host.example.org`, redacted: '[redacted:password]' },
    { name: 'redis-cli -a <password>', value: redis, text: `redis-cli -h cache.internal -a ${redis} ping`, redacted: '[redacted:password]' },
    { name: 'smbclient -U user%password', value: smb, text: `smbclient //fs.internal/share -U deploy%${smb}`, redacted: '[redacted:password]' },
    { name: 'psql postgresql://user:password@', value: psql, text: `psql postgresql://app:${psql}@db.internal/app`, redacted: '[redacted:database-password]' },
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

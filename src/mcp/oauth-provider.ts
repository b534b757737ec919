// aish's `OAuthClientProvider` for one MCP server: the SDK's `auth()` does discovery, registration,
// PKCE, scopes, step-up, token-endpoint authentication and refresh; this class only answers its
// questions from the config (`mcp.servers.<alias>.oauth`) and the token store, and carries the
// person to the authorization page and back (loopback listener) when a login is allowed.

import { createPrivateKey, randomBytes } from 'node:crypto';
import type { AddClientAuthentication, OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { McpOAuthConfig } from '../config/schema.js';
import { LoopbackCallback } from './oauth-callback.js';
import type { OAuthStore } from './oauth-store.js';

/** Thrown where a login would start but none may (start-up, a server connected without one). */
export class LoginNeeded extends Error {
  constructor() {
    super('login needed');
  }
}

/** How an interactive login reaches the person: opens (or prints) the authorization URL. */
export type OpenUrl = (url: URL) => Promise<void>;

/** The JWS algorithm for a PEM private key (private_key_jwt). */
function signingAlgorithm(pem: string): string {
  const key = createPrivateKey(pem);
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    return curve === 'secp384r1' ? 'ES384' : curve === 'secp521r1' ? 'ES512' : 'ES256';
  }
  throw new Error(`private_key_env: unsupported key type ${key.asymmetricKeyType ?? '?'} (use an RSA or EC key)`);
}

export interface AishOAuthProviderOptions {
  /** The MCP server URL: the key of the stored record. */
  serverUrl: string;
  config: McpOAuthConfig | undefined;
  env: Record<string, string | undefined>;
  store: OAuthStore;
  /** Present when a login may start now; absent at start-up and in sessions that must not ask. */
  openUrl?: OpenUrl | undefined;
  /** Hears that the store's file could not be written (the tokens are kept for the session). */
  report?: ((problem: string) => void) | undefined;
}

/**
 * One server's OAuth client. `pendingLogin` is set once the authorization page was opened;
 * `completeLogin` waits for the browser's answer. Tokens and the registered client go to the store.
 */
export class AishOAuthProvider implements OAuthClientProvider {
  readonly #opts: AishOAuthProviderOptions;
  readonly #cfg: McpOAuthConfig | undefined;
  #codeVerifier: string | undefined;
  #state: string | undefined;
  #callback: LoopbackCallback | undefined;
  #login: Promise<void> | undefined;
  addClientAuthentication?: AddClientAuthentication;

  constructor(opts: AishOAuthProviderOptions) {
    this.#opts = opts;
    this.#cfg = opts.config;
    const keyVar = this.#cfg?.private_key_env;
    if (keyVar) {
      const pem = opts.env[keyVar];
      if (!pem) throw new Error(`${keyVar} is not set (private_key_env)`);
      const clientId = this.#cfg?.client_id ?? '';
      // Imported lazily by the SDK together with jose, only for servers that use it.
      this.addClientAuthentication = async (headers, params, url, metadata) => {
        const { createPrivateKeyJwtAuth } = await import('@modelcontextprotocol/sdk/client/auth-extensions.js');
        return createPrivateKeyJwtAuth({ issuer: clientId, subject: clientId, privateKey: pem, alg: signingAlgorithm(pem) })(headers, params, url, metadata);
      };
    }
  }

  get #grant(): 'authorization_code' | 'client_credentials' {
    return this.#cfg?.grant ?? 'authorization_code';
  }

  /** Whether this server may be logged in without a person (client-credentials grant). */
  get machineGrant(): boolean {
    return this.#grant === 'client_credentials';
  }

  /** Whether tokens are stored for this server. */
  get hasTokens(): boolean {
    return this.#opts.store.get(this.#opts.serverUrl).tokens !== undefined;
  }

  /** The listener's redirect URL, else the one registered before, else a placeholder for discovery. */
  get redirectUrl(): string | undefined {
    if (this.#grant === 'client_credentials') return undefined;
    return this.#callback?.redirectUrl ?? this.#registeredRedirect() ?? 'http://127.0.0.1/callback';
  }

  get clientMetadataUrl(): string | undefined {
    return this.#cfg?.client_metadata_url;
  }

  get clientMetadata(): OAuthClientMetadata {
    const secret = this.#clientSecret();
    const method = this.#cfg?.private_key_env ? 'private_key_jwt' : secret ? 'client_secret_basic' : 'none';
    return {
      client_name: 'aish',
      redirect_uris: this.redirectUrl ? [this.redirectUrl] : [],
      grant_types: this.#grant === 'client_credentials' ? ['client_credentials'] : ['authorization_code', 'refresh_token'],
      response_types: this.#grant === 'client_credentials' ? [] : ['code'],
      token_endpoint_auth_method: method,
      ...(this.#cfg?.scopes?.length ? { scope: this.#cfg.scopes.join(' ') } : {}),
    };
  }

  #clientSecret(): string | undefined {
    const name = this.#cfg?.client_secret_env;
    return name ? this.#opts.env[name] || undefined : undefined;
  }

  #registeredRedirect(): string | undefined {
    const client = this.#opts.store.get(this.#opts.serverUrl).client;
    const uris = client && 'redirect_uris' in client ? client.redirect_uris : undefined;
    return Array.isArray(uris) && typeof uris[0] === 'string' ? uris[0] : undefined;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    const clientId = this.#cfg?.client_id;
    if (clientId) {
      const secret = this.#clientSecret();
      return { client_id: clientId, ...(secret ? { client_secret: secret } : {}) };
    }
    return this.#opts.store.get(this.#opts.serverUrl).client;
  }

  saveClientInformation(client: OAuthClientInformationMixed): void {
    this.#registered = true;
    // A pre-registered client lives in the config; only the registered ones are kept.
    if (this.#cfg?.client_id) return;
    this.#saved(this.#opts.store.update(this.#opts.serverUrl, { client }));
  }

  #saved(problem: string | null): void {
    if (problem) this.#opts.report?.(problem);
  }

  tokens(): OAuthTokens | undefined {
    return this.#opts.store.get(this.#opts.serverUrl).tokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.#saved(this.#opts.store.update(this.#opts.serverUrl, { tokens, savedAt: Date.now() }));
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    const state = this.#opts.store.get(this.#opts.serverUrl).discovery;
    // One kept before found no metadata (older aish kept those): discover again.
    return state && !this.#noMetadata(state) ? state : undefined;
  }

  #noMetadata(state: OAuthDiscoveryState): boolean {
    return !state.resourceMetadata && !state.authorizationServerMetadata && !this.#cfg;
  }

  /**
   * Called once discovery is done, before a client registers. Neither protected-resource nor
   * authorization-server metadata, and no `oauth` config: a 2025-03-26 server has its endpoints at
   * their default places (`/register`, `/authorize`, `/token` at its root), and the SDK goes on to
   * them; a server that only takes a token has none, which its registration's failure shows
   * (`offersNoLogin`). Such a state is not kept.
   */
  saveDiscoveryState(state: OAuthDiscoveryState): void {
    if (this.#noMetadata(state)) {
      this.#onDefaults = true;
      return;
    }
    this.#saved(this.#opts.store.update(this.#opts.serverUrl, { discovery: state }));
  }

  /** Discovery found nothing and the default endpoints were tried. */
  #onDefaults = false;
  /** A client was registered (or is known) on this attempt. */
  #registered = false;

  /**
   * The login went to the default endpoints and no client could be registered there: the server
   * takes a token and offers no login (a Bearer-only server), not a 2025-03-26 OAuth server.
   */
  get offersNoLogin(): boolean {
    return this.#onDefaults && !this.#registered && !this.clientInformation();
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    const url = this.#opts.serverUrl;
    if (scope === 'all') this.#saved(this.#opts.store.forget(url).problem);
    else if (scope === 'client') this.#saved(this.#opts.store.update(url, { client: undefined }));
    else if (scope === 'tokens') this.#saved(this.#opts.store.update(url, { tokens: undefined, savedAt: undefined }));
    else if (scope === 'discovery') this.#saved(this.#opts.store.update(url, { discovery: undefined }));
    else this.#codeVerifier = undefined;
  }

  state(): string {
    this.#state = randomBytes(24).toString('base64url');
    return this.#state;
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.#codeVerifier = codeVerifier;
  }

  codeVerifier(): string {
    if (!this.#codeVerifier) throw new Error('no PKCE code verifier: the login did not start here');
    return this.#codeVerifier;
  }

  prepareTokenRequest(scope?: string): URLSearchParams | undefined {
    if (this.#grant !== 'client_credentials') return undefined;
    const params = new URLSearchParams({ grant_type: 'client_credentials' });
    if (scope) params.set('scope', scope);
    return params;
  }

  /**
   * Starts the loopback listener for a login, on the port of the redirect URI registered before
   * when there is one (authorization servers compare it), else on any free port. A client aish
   * registered itself for another port is forgotten, so the SDK registers again.
   */
  async prepareLogin(): Promise<void> {
    if (this.#grant === 'client_credentials' || this.#callback) return;
    const registered = this.#registeredRedirect();
    const port = registered ? Number(new URL(registered).port) || 0 : 0;
    try {
      this.#callback = await LoopbackCallback.listen(port);
    } catch {
      this.#callback = await LoopbackCallback.listen(0);
      if (!this.#cfg?.client_id) this.#saved(this.#opts.store.update(this.#opts.serverUrl, { client: undefined }));
    }
  }

  /** Opens the authorization page (a login must be allowed) and waits for the browser in `completeLogin`. */
  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    if (!this.#opts.openUrl) throw new LoginNeeded();
    if (!this.#callback) {
      const redirect = authorizationUrl.searchParams.get('redirect_uri');
      this.#callback = await LoopbackCallback.listen(redirect ? Number(new URL(redirect).port) || 0 : 0);
    }
    this.#callback.expectState(this.#state);
    this.#login = this.#opts.openUrl(authorizationUrl);
    await this.#login;
  }

  /** Whether an authorization page was opened and its answer not yet taken. */
  get pendingLogin(): boolean {
    return this.#login !== undefined;
  }

  /** The authorization code the browser brings back; the listener closes either way. */
  async completeLogin(signal?: AbortSignal): Promise<string> {
    const callback = this.#callback;
    if (!callback || !this.#login) throw new LoginNeeded();
    try {
      return await callback.code(signal);
    } finally {
      this.#login = undefined;
      this.endLogin();
    }
  }

  /** Closes the listener, if any. */
  endLogin(): void {
    this.#callback?.close();
    this.#callback = undefined;
  }
}

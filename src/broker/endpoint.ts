// The endpoint rule of SPEC §5: where a configured base URL sends chat-completions requests.
// Pure; a query string (Azure's `?api-version=`) is kept.

import { configError } from './errors.js';

/**
 * The chat-completions URL for a configured endpoint: one ending in `/chat/completions` is used
 * as is, one ending in `/v1` gets `/chat/completions`, anything else `/v1/chat/completions`;
 * trailing slashes are stripped first. Throws `broker: ...` for a URL that is not http(s).
 */
export function chatCompletionsUrl(endpoint: string): string {
  let url: URL;
  try {
    url = new URL(endpoint.trim());
  } catch {
    throw configError(`endpoint is not a URL: "${endpoint}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw configError(`endpoint must be http:// or https://, got "${endpoint}"`);
  }
  const path = url.pathname.replace(/\/+$/, '');
  if (path.endsWith('/chat/completions')) url.pathname = path;
  else if (path.endsWith('/v1')) url.pathname = `${path}/chat/completions`;
  else url.pathname = `${path}/v1/chat/completions`;
  return url.toString();
}

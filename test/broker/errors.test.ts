import { describe, expect, it } from 'vitest';
import { apiError, BrokerError, closedError, httpError, isFallbackEligible, oneLine, retryAfterMs, timeoutError, transportError } from '../../src/broker/errors.js';
import { AishError } from '../../src/errors.js';

describe('oneLine', () => {
  it('collapses whitespace, drops control characters and escape sequences', () => {
    expect(oneLine('  <h1>Bad\r\n\tGateway</h1>\x07 \x1b[31mred\x1b[0m\x00 ')).toBe('<h1>Bad Gateway</h1> red');
  });

  it('cuts long text to 200 characters with an ellipsis', () => {
    const out = oneLine('x'.repeat(500));
    expect(out).toBe(`${'x'.repeat(200)}…`);
  });

  it('does not cut a surrogate pair in half', () => {
    const out = oneLine(`${'a'.repeat(199)}🚀🚀`);
    expect(out).toBe(`${'a'.repeat(199)}…`);
  });
});

describe('BrokerError', () => {
  it('is an AishError whose message is "<kind>: <detail>"', () => {
    const err = new BrokerError('decode', 'no valid chunks in stream');
    expect(err).toBeInstanceOf(AishError);
    expect(err.message).toBe('decode: no valid chunks in stream');
    expect(err.kind).toBe('decode');
    expect(err.receivedDelta).toBe(false);
    expect(err.name).toBe('BrokerError');
  });

  it.each([
    [httpError(503, '{"error":"busy"}\n'), 'transport: HTTP 503: busy'],
    [httpError(429, '{"error":{"message":"Rate limit reached for requests","type":"requests","code":"rate_limit_exceeded"}}'), 'transport: HTTP 429: Rate limit reached for requests (rate_limit_exceeded)'],
    [httpError(400, '{"message":"bad field tools"}'), 'transport: HTTP 400: bad field tools'],
    [httpError(404, '{"error":{"code":"model_not_found","message":"model_not_found: x"}}'), 'transport: HTTP 404: model_not_found: x'],
    [httpError(500, '{"detail":"no message field"}'), 'transport: HTTP 500: {"detail":"no message field"}'],
    [httpError(502, '', 'Bad Gateway'), 'transport: HTTP 502: Bad Gateway'],
    [apiError({ message: 'context  length\nexceeded', code: 400 }), 'api: context length exceeded'],
    [apiError('plain string'), 'api: plain string'],
    [apiError({ code: 7 }), 'api: {"code":7}'],
    [timeoutError(), 'transport: Timeout was reached'],
    [closedError(true), 'transport: connection closed mid-stream'],
    [closedError(false), 'transport: connection closed before a response'],
    [transportError(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }), false), 'transport: Connection refused'],
    [transportError(new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })], 'all failed'), false), 'transport: Connection refused'],
    [transportError(new TypeError('fetch failed', { cause: Object.assign(new Error('x'), { code: 'ENOTFOUND' }) }), false), "transport: Couldn't resolve host"],
    [transportError(Object.assign(new Error('x'), { code: 'EAI_AGAIN' }), false), "transport: Couldn't resolve host"],
    [transportError(Object.assign(new Error('x'), { code: 'UND_ERR_CONNECT_TIMEOUT' }), false), 'transport: Timeout was reached'],
    [transportError(Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }), true), 'transport: connection closed mid-stream'],
    [transportError(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }), false), 'transport: connection closed before a response'],
    [transportError(new Error('self-signed certificate\nin chain'), false), 'transport: self-signed certificate in chain'],
  ])('%#: %s', (err, message) => {
    expect(err.message).toBe(message);
  });
});

describe('isFallbackEligible', () => {
  const t = (detail: string, status?: number) => new BrokerError('transport', detail, status === undefined ? {} : { status });
  it.each([
    [httpError(500, 'oops'), true],
    [httpError(502, ''), true],
    [httpError(503, 'loading model'), true],
    [httpError(504, 'gateway timeout'), true],
    [httpError(408, 'request timeout'), true],
    [httpError(404, '{"error":{"code":"model_not_found","message":"The model `x` does not exist"}}'), true],
    [httpError(404, '{"error":"model \\"llama3.1:8b\\" not found, try pulling it first"}'), true],
    [httpError(404, '404 page not found'), false],
    [httpError(404, 'Cannot POST /v1/chat/completions'), false],
    [httpError(400, 'bad request'), false],
    [httpError(401, 'invalid api key'), false],
    [httpError(403, 'forbidden'), false],
    [httpError(429, 'rate limited'), false],
    [t('HTTP 503: no status field'), true],
    [t('Connection refused'), true],
    [t("Couldn't resolve host"), true],
    [t('Timeout was reached'), true],
    [t('connection closed mid-stream'), false],
    [t('connection closed before a response'), false],
    [apiError('Provider returned error'), false],
    [new BrokerError('decode', 'no valid chunks in stream'), false],
    [new BrokerError('broker', 'model preset has no endpoint'), false],
    [new Error('transport: Connection refused'), false],
    ['transport: Connection refused', false],
  ])('%#: %s -> %s', (err, eligible) => {
    expect(isFallbackEligible(err)).toBe(eligible);
  });

  it('never once a delta arrived', () => {
    const err = timeoutError();
    err.receivedDelta = true;
    expect(isFallbackEligible(err)).toBe(false);
  });
});

describe('retryAfterMs', () => {
  it.each<[string | undefined, number | undefined]>([
    ['2', 2000],
    [' 0 ', 0],
    ['Wed, 21 Oct 2015 07:28:10 GMT', 0],
    [new Date(Date.UTC(2030, 0, 1, 0, 0, 30)).toUTCString(), 30_000],
    ['soon', undefined],
    [undefined, undefined],
    ['', undefined],
  ])('%j → %s', (header, ms) => {
    expect(retryAfterMs(header, Date.UTC(2030, 0, 1, 0, 0, 0))).toBe(ms);
  });
});


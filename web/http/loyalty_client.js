// The loyalty API over HTTP (docs/reference.md#http-api, and the local service's account and basket
// operations): every failure becomes a QualifyError with the service's { code, message }; a
// network failure and a timeout get their own codes. Runs in Node >= 18 and in browsers.
import { toJsonText } from '../engine/json_text.js';
import { QualifyError } from '../engine/qualify_error.js';
import { NETWORK_ERROR, TIMEOUT } from './service_failure.js';
import { withinTime } from './time_limit.js';

export { NETWORK_ERROR, TIMEOUT, isServiceUnavailable } from './service_failure.js';

const LOYALTY_MEDIA_TYPE = 'application/vnd.service-v1+json';
const DEFAULT_TIMEOUT_MS = 10_000;

/** A non-empty string option, or a TypeError naming it (internal). */
export function requireText(value, name) {
  if (typeof value !== 'string' || value.length === 0) {
    throw new TypeError(`${name} must be a non-empty string`);
  }
  return value;
}

function causeOf(error) {
  const cause = error?.cause;
  return cause?.code ?? cause?.message ?? error?.message ?? String(error);
}

function withCause(error, cause) {
  error.cause = cause;
  return error;
}

/**
 * One HTTP exchange with a JSON (or empty) answer (internal: shared by the clients). Resolves the
 * parsed body (undefined when empty); rejects with QualifyError: the service's { code, message }
 * for an error status, NETWORK_ERROR or TIMEOUT when no answer came, or the `signal`'s reason
 * when the caller aborted. `exchange`, when given, receives the answer's `status`, `etag` and
 * `date` (its Date header, null when absent or not readable); with `exchange.allowNotModified`, a
 * 304 resolves undefined instead of rejecting.
 */
export async function requestJson({ fetch, url, method = 'GET', headers = {}, body, timeoutMs, signal, exchange }) {
  const fetchImpl = fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== 'function') {
    throw new QualifyError(NETWORK_ERROR, 'no fetch() in this environment: pass options.fetch');
  }
  signal?.throwIfAborted?.();
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onAbort = () => controller.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  const where = `${method} ${url}`;
  const failure = (error) => {
    if (signal?.aborted) return signal.reason ?? error;
    if (timedOut) {
      return withCause(new QualifyError(TIMEOUT, `${where}: no answer within ${timeoutMs} ms`), error);
    }
    if (error instanceof QualifyError) return error;
    return withCause(new QualifyError(NETWORK_ERROR, `${where}: cannot reach the service (${causeOf(error)})`), error);
  };
  let response;
  let text;
  try {
    response = await fetchImpl.call(globalThis, url, { method, headers, body, signal: controller.signal });
    text = await response.text();
  } catch (e) {
    throw failure(e);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
  if (exchange) {
    exchange.status = response.status;
    exchange.etag = response.headers?.get?.('etag') ?? null;
    exchange.date = response.headers?.get?.('date') ?? null;
    if (response.status === 304 && exchange.allowNotModified) return undefined;
  }
  let parsed;
  if (text.length > 0) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
  }
  if (!response.ok) {
    if (parsed && typeof parsed.message === 'string') {
      throw new QualifyError(Number.isInteger(parsed.code) ? parsed.code : response.status, parsed.message);
    }
    const reason = `${response.status} ${response.statusText}`.trim();
    throw new QualifyError(response.status, `${where}: ${reason}${text ? `: ${text.slice(0, 200)}` : ''}`);
  }
  if (text.length > 0 && parsed === undefined) {
    throw new QualifyError(502, `${where}: the answer is not JSON: ${text.slice(0, 200)}`);
  }
  return parsed;
}

/**
 * An absolute URL as given; in a page (or a worker), a path such as '/' or '/api' resolved against
 * its address once, as hub.url is (a page behind a dev server's proxy or the kiosk server's).
 */
function baseUrlOf(url, urlName) {
  try {
    new URL(url);
    return url;
  } catch {
    // not absolute: relative to the page, if there is one
  }
  try {
    if (globalThis.location?.href !== undefined) return new URL(url, globalThis.location.href).href;
  } catch {
    // no URL even against the page's address
  }
  throw new TypeError(`${urlName} must be an absolute URL, e.g. http://127.0.0.1:8080, or in a page a path such as '/' (resolved against the page's address)`);
}

/**
 * One service as the clients see it (internal: the request helper shared by LoyaltyClient and
 * SandboxClient): the validated common options (`urlName`, fetch, timeoutMs) and the headers
 * sent on every request. `request()` is one exchange through requestJson().
 */
export class ServiceEndpoint {
  #url;
  #fetch;
  #timeoutMs;
  #headers;

  constructor(options, urlName, headersOf) {
    if (options === null || typeof options !== 'object') {
      throw new TypeError('options must be an object');
    }
    const url = baseUrlOf(requireText(options[urlName], urlName), urlName);
    if (options.fetch !== undefined && typeof options.fetch !== 'function') {
      throw new TypeError('fetch must be a function (default: globalThis.fetch)');
    }
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (typeof timeoutMs !== 'number' || !(timeoutMs > 0) || !Number.isFinite(timeoutMs)) {
      throw new TypeError('timeoutMs must be a positive number of milliseconds');
    }
    this.#url = url.replace(/\/+$/, '');
    this.#fetch = options.fetch ?? null;
    this.#timeoutMs = timeoutMs;
    this.#headers = headersOf(options);
  }

  /** The service URL, without a trailing slash. */
  get url() {
    return this.#url;
  }

  /** How long one request (or a token function) may take, in milliseconds. */
  get timeoutMs() {
    return this.#timeoutMs;
  }

  /** `method path` with the fixed headers (plus `headers`); JSON `body` text when given. */
  request(method, path, { body, signal, headers, exchange } = {}) {
    const all = { ...this.#headers, ...headers };
    if (body !== undefined) all['Content-Type'] = 'application/json';
    return requestJson({
      fetch: this.#fetch,
      url: this.#url + path,
      method,
      headers: all,
      body,
      timeoutMs: this.#timeoutMs,
      signal,
      exchange,
    });
  }
}

const ACCOUNT_READ_OPTIONS = ['locationUid', 'redemptionVenue', 'rewardStates'];

/**
 * The service's time of an answer, from its HTTP `Date` header (RFC 9110 5.6.7: to the second),
 * as RFC 3339 without a fraction (`2026-11-24T13:15:00Z`: said to the second), or null when the
 * answer has none or the browser does not let the page read it (a cross-origin answer that does
 * not name Date in Access-Control-Expose-Headers) or it is not a date.
 */
function servedAtOf(date) {
  const at = typeof date === 'string' ? Date.parse(date) : NaN;
  return Number.isNaN(at) ? null : new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * The account read's query string (`?location_uid=...&redemption_venue=...&reward_states[]=...`,
 * one `reward_states[]` per state: the bracket convention, docs/reference.md#array-query-parameters), '' without any.
 * TypeError for an unknown option or one of the wrong type; the service judges the values (400).
 */
function accountQuery(read) {
  const unknown = Object.keys(read).find((name) => !ACCOUNT_READ_OPTIONS.includes(name));
  if (unknown !== undefined) {
    throw new TypeError(`unknown account read option "${unknown}" (known: signal, ${ACCOUNT_READ_OPTIONS.join(', ')})`);
  }
  const { locationUid, redemptionVenue, rewardStates } = read;
  const parts = [];
  if (locationUid !== undefined) {
    parts.push(`location_uid=${encodeURIComponent(requireText(locationUid, 'locationUid'))}`);
  }
  if (redemptionVenue !== undefined) {
    parts.push(`redemption_venue=${encodeURIComponent(requireText(redemptionVenue, 'redemptionVenue'))}`);
  }
  if (rewardStates !== undefined) {
    if (!Array.isArray(rewardStates) || rewardStates.length === 0) {
      throw new TypeError('rewardStates must be a non-empty array of strings');
    }
    for (const state of rewardStates) {
      parts.push(`reward_states[]=${encodeURIComponent(requireText(state, 'rewardStates[]'))}`);
    }
  }
  return parts.length === 0 ? '' : `?${parts.join('&')}`;
}

// FNV-1a (32 bit) as hex: a short tag for logs and display, never an identity nor a store key
// (orders belong to the (merchant, user) of the account read, see order_checkout.js).
function fingerprint(text) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; ++i) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

function checkToken(accessToken) {
  if (typeof accessToken !== 'function') requireText(accessToken, 'accessToken');
  return accessToken;
}

/**
 * The loyalty API of one user at one merchant: qualifying dry runs, the account snapshot and
 * basket create/update, with the loyalty API's headers (Authorization, Merchant-Key, Accept).
 * `accessToken` is a string or a function (sync or async) giving the current token, called for
 * each request, so a token can be refreshed without a new client.
 */
export class LoyaltyClient {
  #endpoint;
  #identity;
  #options;
  #merchantKey;
  #accessToken;

  constructor(options) {
    this.#endpoint = new ServiceEndpoint(options, 'baseUrl', () => {
      this.#accessToken = checkToken(options.accessToken);
      this.#merchantKey = requireText(options.merchantKey, 'merchantKey');
      return { 'Merchant-Key': this.#merchantKey, Accept: LOYALTY_MEDIA_TYPE };
    });
    this.#options = { fetch: options.fetch, timeoutMs: options.timeoutMs };
    const token = typeof this.#accessToken === 'function' ? '<function>' : this.#accessToken;
    this.#identity = fingerprint(`${this.#endpoint.url}\n${this.#merchantKey}\n${token}`);
  }

  /** The base URL, without a trailing slash. */
  get baseUrl() {
    return this.#endpoint.url;
  }

  /**
   * A short fingerprint of (base URL, merchant key, token) for logs and display; it decides
   * nothing (HybridQualifier keys snapshots by the full SHA-256 of credentials()).
   */
  get identity() {
    return this.#identity;
  }

  /** How long one request, or one call of the token function, may take (the timeoutMs option). */
  get timeoutMs() {
    return this.#endpoint.timeoutMs;
  }

  /**
   * The current token: the string, or what the token function gives now (within timeoutMs: a
   * function that never settles fails like one that throws).
   */
  async accessToken() {
    let token;
    try {
      if (typeof this.#accessToken === 'function') {
        const given = Promise.resolve().then(() => this.#accessToken());
        const late = () => new Error(`it gave no token within ${this.timeoutMs} ms`);
        token = await withinTime(given, this.timeoutMs, late);
      } else {
        token = this.#accessToken;
      }
    } catch (e) {
      const error = new QualifyError(NETWORK_ERROR, `no access token: accessToken() failed (${e?.message ?? e})`);
      error.cause = e;
      error.notSent = true;
      throw error;
    }
    if (typeof token !== 'string' || token.length === 0) {
      const error = new QualifyError(NETWORK_ERROR, 'no access token: accessToken() gave no non-empty string');
      error.notSent = true;
      throw error;
    }
    return token;
  }

  /**
   * { baseUrl, merchantKey, accessToken }: what a replay on another client needs (the token as
   * it is now). HybridQualifier stores it with a queued order unless storeCredentials is false.
   */
  async credentials() {
    return { baseUrl: this.baseUrl, merchantKey: this.#merchantKey, accessToken: await this.accessToken() };
  }

  /** A client of the same kind (fetch, timeoutMs) for other credentials { baseUrl, merchantKey, accessToken }. */
  withCredentials({ baseUrl, merchantKey, accessToken }) {
    const options = { baseUrl, merchantKey, accessToken };
    if (this.#options.fetch !== undefined) options.fetch = this.#options.fetch;
    if (this.#options.timeoutMs !== undefined) options.timeoutMs = this.#options.timeoutMs;
    return new LoyaltyClient(options);
  }

  async #request(method, path, options = {}) {
    const authorization = { Authorization: `Bearer ${await this.accessToken()}` };
    return this.#endpoint.request(method, path, { ...options, headers: { ...authorization, ...options.headers } });
  }

  /** POST /api/baskets/qualifying: the qualifying rewards and points products (docs/reference.md#answer). */
  async qualify(basket, { signal } = {}) {
    const body = toJsonText(basket, 'basket', 400);
    return this.#request('POST', '/api/baskets/qualifying', { body, signal });
  }

  /**
   * GET /api/account: the account snapshot, exactly what createQualifier() accepts. With
   * `locationUid`, `redemptionVenue` or `rewardStates`, the read is narrowed as the loyalty
   * service narrows it (`location_uid`, `redemption_venue`, `reward_states[]`). `onAnswer`, when
   * given, is called with `{ etag, servedAt }` of the answer (servedAt: servedAtOf its Date header)
   * before the promise resolves.
   */
  async account({ signal, onAnswer, ...read } = {}) {
    if (onAnswer !== undefined && typeof onAnswer !== 'function') throw new TypeError('onAnswer must be a function');
    const exchange = {};
    const body = await this.#request('GET', `/api/account${accountQuery(read)}`, { signal, exchange });
    onAnswer?.({ etag: exchange.etag ?? null, servedAt: servedAtOf(exchange.date) });
    return body;
  }

  /**
   * GET /api/account sent with `If-None-Match: etag` (when etag is a string): resolves
   * { notModified: true, etag, servedAt } for a 304, else { notModified: false, snapshot, etag,
   * servedAt } (etag: the answer's ETag, or null; servedAt: the service's time of the answer from
   * its Date header, servedAtOf(), or null). The read options are account()'s; the ETag is that of
   * the read they ask for.
   */
  async accountIfChanged(etag, { signal, ...read } = {}) {
    const path = `/api/account${accountQuery(read)}`;
    const exchange = { allowNotModified: typeof etag === 'string' };
    const extra = typeof etag === 'string' ? { 'If-None-Match': etag } : {};
    const snapshot = await this.#request('GET', path, {
      signal,
      exchange,
      headers: extra,
    });
    const servedAt = servedAtOf(exchange.date);
    if (exchange.status === 304) return { notModified: true, etag: exchange.etag ?? etag, servedAt };
    return { notModified: false, snapshot, etag: exchange.etag, servedAt };
  }

  /** POST /api/baskets: creates or updates a basket; resolves { id, state, discount, offer? }. */
  async saveBasket(body, { signal } = {}) {
    return this.#request('POST', '/api/baskets', {
      body: toJsonText(body, 'basket', 400),
      signal,
    });
  }
}

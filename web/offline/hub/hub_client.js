// The store hub as a kiosk talks to it (docs/hub.md, "The HTTP API"): claims on a guest's offers
// for a basket, their release or spend when the order settles, and the guest's live claims. Every
// call carries the store key and is bounded by a timeout. Answers are { status, body }; a hub that
// cannot be reached (no answer, a timeout, a 5xx) is { unreachable: true, message }, never a throw.
// The client is an EventTarget: 'hubreachabilitychange' when a call finds the hub answering after
// it did not (or at the first call), or not answering after it did.
import { HubReachabilityEvent } from '../../events/qualifier_events.js';

const DEFAULT_TIMEOUT_MS = 3_000;

/** The `hub` option of HybridQualifier, checked: { url, storeKey, kioskId, timeoutMs, fetch }. */
export function hubOption(hub) {
  if (hub === undefined || hub === null) return null;
  if (typeof hub !== 'object') throw new TypeError('hub must be an object: { url, storeKey, kioskId }');
  const { url, storeKey, kioskId, timeoutMs = DEFAULT_TIMEOUT_MS, fetch: fetchImpl } = hub;
  let parsed = null;
  try {
    parsed = typeof url === 'string' ? new URL(url, globalThis.location?.href) : null;
  } catch {
    parsed = null;
  }
  if (parsed === null || !/^https?:$/.test(parsed.protocol)) throw new TypeError('hub.url must be the store hub\'s http(s) URL, e.g. "http://127.0.0.1:8091"');
  if (typeof storeKey !== 'string' || !/^[\x21-\x7e]{1,512}$/.test(storeKey)) {
    throw new TypeError('hub.storeKey must be the store key: 1 to 512 visible ASCII characters');
  }
  if (typeof kioskId !== 'string' || kioskId === '' || new TextEncoder().encode(kioskId).length > 256 || /[\u0000-\u001f\u007f]/.test(kioskId)) {
    throw new TypeError('hub.kioskId must be a non-empty string of at most 256 bytes without control characters');
  }
  if (typeof timeoutMs !== 'number' || !(timeoutMs > 0)) throw new TypeError('hub.timeoutMs must be a positive number of milliseconds');
  if (fetchImpl !== undefined && typeof fetchImpl !== 'function') throw new TypeError('hub.fetch must be a function');
  return { url: parsed.href.replace(/\/$/, ''), storeKey, kioskId, timeoutMs, fetch: fetchImpl };
}

export class StoreHubClient extends EventTarget {
  #url;
  #storeKey;
  #timeoutMs;
  #fetch;
  #reachable = { reachable: null, message: null };

  /** options: hubOption()'s. */
  constructor({ url, storeKey, kioskId, timeoutMs, fetch: fetchImpl }) {
    super();
    this.#url = url;
    this.#storeKey = storeKey;
    this.kioskId = kioskId;
    this.#timeoutMs = timeoutMs;
    this.#fetch = fetchImpl ?? ((...args) => globalThis.fetch(...args));
  }

  /** POST /hub/claims: body as the hub takes it, kiosk_id added. */
  claim(body) {
    return this.#call('POST', '/hub/claims', { ...body, kiosk_id: this.kioskId });
  }

  /** POST /hub/claims/spend ({ merchant_id, user_id, basket_id, billed_at? }). */
  spend(body) {
    return this.#call('POST', '/hub/claims/spend', body);
  }

  /** POST /hub/claims/release ({ merchant_id, user_id, basket_id }). */
  release(body) {
    return this.#call('POST', '/hub/claims/release', body);
  }

  /** GET /hub/claims of a guest. */
  claims(merchantId, userId) {
    const query = new URLSearchParams({ merchant_id: merchantId, user_id: userId });
    return this.#call('GET', `/hub/claims?${query}`);
  }

  /** GET /hub/health. */
  health() {
    return this.#call('GET', '/hub/health');
  }

  /** Whether the hub answered the last call: { reachable: true | false | null (no call yet), message }. */
  get reachability() {
    return { ...this.#reachable };
  }

  async #call(method, route, body) {
    const answer = await this.#exchange(method, route, body);
    const reachable = answer.unreachable !== true;
    const message = reachable ? null : answer.message;
    if (reachable !== this.#reachable.reachable) {
      this.#reachable = { reachable, message };
      this.dispatchEvent(new HubReachabilityEvent(reachable, message));
    } else {
      this.#reachable.message = message;
    }
    return answer;
  }

  async #exchange(method, route, body) {
    const headers = { 'Store-Key': this.#storeKey };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    let response;
    let text;
    try {
      response = await this.#fetch(this.#url + route, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
      text = await response.text();
    } catch (e) {
      return { unreachable: true, message: `the store hub cannot be reached (${e?.message ?? e})` };
    }
    let parsed = null;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = null;
    }
    if (response.status >= 500) {
      return { unreachable: true, message: `the store hub cannot answer now (${response.status}: ${parsed?.message ?? text.slice(0, 200)})` };
    }
    return { status: response.status, body: parsed };
  }
}

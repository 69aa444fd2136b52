// The consumer API's sandbox operations (docs/reference.md#sandbox-operations): grant a reward,
// simulate a purchase, list purchases and rewards, and wait for a purchase to land with the
// polling schedule of the sandbox (docs/reference.md#polling-schedule). Runs in Node >= 18 and in browsers.
import { ServiceEndpoint, isServiceUnavailable, requireText } from './loyalty_client.js';

/** The consumer API version sent as Accept-Version. */
export const CONSUMER_API_VERSION = 'v4.0';

/**
 * The sandbox's schedule: first poll after 60 s, then waits doubling up to 5 minutes, giving up after about
 * 45 minutes in total (the last wait is shortened so that the last poll falls at 45:00).
 */
export const SANDBOX_POLL_SCHEDULE = Object.freeze({ firstDelayMs: 60_000, maxDelayMs: 300_000, totalMs: 45 * 60_000 });

function checkSchedule(schedule) {
  const merged = { ...SANDBOX_POLL_SCHEDULE, ...(schedule ?? {}) };
  for (const name of ['firstDelayMs', 'maxDelayMs', 'totalMs']) {
    const value = merged[name];
    if (typeof value !== 'number' || !Number.isFinite(value) || !(value > 0)) {
      throw new TypeError(`schedule.${name} must be a positive number of milliseconds`);
    }
  }
  return merged;
}

/**
 * The waits before each poll of waitForPurchase() when every poll is instantaneous: with the
 * default schedule 60, 120, 240, 300 × 7 and 180 seconds (11 polls, the last at 45:00).
 */
export function pollDelays(schedule) {
  const { firstDelayMs, maxDelayMs, totalMs } = checkSchedule(schedule);
  const delays = [];
  let elapsed = 0;
  let next = Math.min(firstDelayMs, maxDelayMs);
  while (elapsed < totalMs) {
    const wait = Math.min(next, totalMs - elapsed);
    delays.push(wait);
    elapsed += wait;
    next = Math.min(next * 2, maxDelayMs);
  }
  return delays;
}

/**
 * A query string in the bracket convention (docs/reference.md#array-query-parameters): an array is `name[]=a&name[]=b`,
 * one `name[]` per value; anything else is `name=value`, one string (commas are not split).
 * undefined and null are left out; an empty array cannot be expressed and is a TypeError.
 */
export function encodeQuery(params = {}) {
  const parts = [];
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      if (value.length === 0) {
        throw new TypeError(`${name} must not be an empty array: an empty filter cannot be sent (leave it out to match everything)`);
      }
      for (const item of value) parts.push(`${encodeURIComponent(name)}[]=${encodeURIComponent(String(item))}`);
    } else {
      parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`);
    }
  }
  return parts.length === 0 ? '' : `?${parts.join('&')}`;
}

// "012.50" -> "12.5": decimals compare by value, whatever their notation.
function decimalKey(value) {
  const text = String(value).trim();
  const match = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(text);
  if (match === null || (match[2] === '' && (match[3] ?? '') === '')) return `text:${text}`;
  const whole = match[2].replace(/^0+/, '') || '0';
  const fraction = (match[3] ?? '').replace(/0+$/, '');
  const negative = match[1] === '-' && (whole !== '0' || fraction !== '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

function sameField(name, actual, expected) {
  if (name === 'amount') return decimalKey(actual) === decimalKey(expected);
  if (name.endsWith('_at') && typeof actual === 'string' && typeof expected === 'string') {
    const a = Date.parse(actual);
    const b = Date.parse(expected);
    if (!Number.isNaN(a) && !Number.isNaN(b)) return a === b;
  }
  return actual === expected;
}

/**
 * A predicate over purchases: a function is used as is; an object matches purchases whose every
 * named field equals it (`amount` by decimal value, `*_at` fields as instants).
 */
export function purchaseMatcher(match) {
  if (typeof match === 'function') return match;
  if (match === null || typeof match !== 'object' || Array.isArray(match)) {
    throw new TypeError('match must be a function or an object of purchase fields, e.g. { user_id, amount }');
  }
  const expected = Object.entries(match).filter(([, value]) => value !== undefined);
  return (purchase) => expected.every(([name, value]) => sameField(name, purchase?.[name], value));
}

function sleep(ms, timers, signal) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      timers.clearTimeout(handle);
      reject(signal.reason);
    };
    const handle = timers.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function timersOf(timers) {
  const chosen = {
    setTimeout: timers?.setTimeout ?? ((fn, ms) => globalThis.setTimeout(fn, ms)),
    clearTimeout: timers?.clearTimeout ?? ((handle) => globalThis.clearTimeout(handle)),
    now: timers?.now ?? (() => Date.now()),
  };
  for (const [name, fn] of Object.entries(chosen)) {
    if (typeof fn !== 'function') throw new TypeError(`timers.${name} must be a function`);
  }
  return chosen;
}

/**
 * The consumer API sandbox of one user: `Authorization: Bearer`, `X-ClientId`,
 * `Accept-Version: v4.0` and `Accept: application/json` on every request.
 */
export class SandboxClient {
  #endpoint;

  constructor(options) {
    this.#endpoint = new ServiceEndpoint(options, 'sandboxApiUrl', () => ({
      Authorization: `Bearer ${requireText(options.accessToken, 'accessToken')}`,
      'X-ClientId': requireText(options.clientId, 'clientId'),
      'Accept-Version': CONSUMER_API_VERSION,
      Accept: 'application/json',
    }));
  }

  /** The sandbox API URL, without a trailing slash. */
  get sandboxApiUrl() {
    return this.#endpoint.url;
  }

  /**
   * POST /rewards/grant { campaign_id, user_id }: issues the campaign's reward to the user.
   * `campaign_id` is the hashid form of the program's external_uid (a numeric program id does
   * not resolve). Resolves the reward record created.
   *
   * The sandbox's fraud rule (docs/reference.md#sandbox-fraud-rule): when the user holds a standard test card (e.g.
   * 4111111111111111), the reward of an intro, birthday, winback or signup campaign silently does
   * not activate; this call answers exactly the same, but the reward never shows in listRewards()
   * or the account. Give each test user a unique card number (the first 6 and last 4 digits of a
   * standard test card, middle digits your own); against the local service, fraudReport() and
   * `loyalty-qualifier sandbox doctor` say beforehand which rewards would fail.
   */
  async grantReward({ campaign_id, user_id } = {}, { signal } = {}) {
    const answer = await this.#endpoint.request('POST', '/rewards/grant', {
      body: JSON.stringify({ campaign_id, user_id }),
      signal,
    });
    return answer?.reward;
  }

  /**
   * POST /purchases {"purchase": {merchant_id, location_id, user_id, amount, purchased_at}}:
   * accepted (no body) and processed asynchronously; it lands after the sandbox delay.
   */
  async simulatePurchase(purchase, { signal } = {}) {
    if (purchase === null || typeof purchase !== 'object' || Array.isArray(purchase)) {
      throw new TypeError('purchase must be an object { merchant_id, location_id, user_id, amount, purchased_at }');
    }
    await this.#endpoint.request('POST', '/purchases', { body: JSON.stringify({ purchase }), signal });
  }

  /** GET /purchases: the user's landed purchases, latest first; arrays use `name[]`. */
  async listPurchases(filters = {}, { signal } = {}) {
    const answer = await this.#endpoint.request('GET', `/purchases${encodeQuery(filters)}`, { signal });
    return answer?.purchases ?? [];
  }

  /** GET /rewards: the user's rewards, e.g. listRewards({ states: ['redeemable'] }). */
  async listRewards(filters = {}, { signal } = {}) {
    const answer = await this.#endpoint.request('GET', `/rewards${encodeQuery(filters)}`, { signal });
    return answer?.rewards ?? [];
  }

  /**
   * The local service's own helper (not an operation of the loyalty API, which has no card
   * registration): POST /emulator/cards registers a card for the token's user, the input of the
   * emulated sandbox fraud rule. A standard test card (e.g. 4111111111111111) is high-risk: the
   * user's intro, birthday, winback and signup rewards then silently fail to activate. Use a
   * unique number per test user: the first 6 and last 4 digits of a standard test card, middle
   * digits of your own, the same on every run. `replace: true` drops the user's other cards.
   * Resolves `{ card, brand, user_id, registered_at }` (the card masked).
   */
  async registerCard({ card_number, replace, user_id } = {}, { signal } = {}) {
    const answer = await this.#endpoint.request('POST', '/emulator/cards', {
      body: JSON.stringify({ card_number, replace, user_id }),
      signal,
    });
    return answer?.card;
  }

  /**
   * The local service's own helper: GET /emulator/fraud_report, which of the user's campaign
   * rewards the emulated sandbox fraud rule would silently withhold, and the fix:
   * `{ user_id, merchant_id, rule, cards, campaigns, silent_failures, fix }`.
   */
  async fraudReport({ user_id } = {}, { signal } = {}) {
    return this.#endpoint.request('GET', `/emulator/fraud_report${encodeQuery({ user_id })}`, { signal });
  }

  /**
   * Polls GET /purchases until a purchase matches (resolves it) or the schedule runs out
   * (resolves null): first poll after 60 s, waits doubling to a 5-minute cap, about 45 minutes
   * in all (the sandbox's schedule). A poll that fails for want of the service is retried at the next
   * step; a 4xx rejects. `onProgress` gets one event per step; `timers` replaces
   * setTimeout/clearTimeout/now (tests); `signal` aborts the wait.
   */
  async waitForPurchase(match, { onProgress, signal, timers, schedule, filters } = {}) {
    const matches = purchaseMatcher(match);
    const clock = timersOf(timers);
    const { firstDelayMs, maxDelayMs, totalMs } = checkSchedule(schedule);
    if (onProgress !== undefined && typeof onProgress !== 'function') {
      throw new TypeError('onProgress must be a function');
    }
    const started = clock.now();
    const elapsed = () => clock.now() - started;
    const emit = (event) => onProgress?.({ ...event, elapsedMs: elapsed(), totalMs });
    let next = Math.min(firstDelayMs, maxDelayMs);
    let attempt = 0;
    for (;;) {
      const remaining = totalMs - elapsed();
      if (remaining <= 0) {
        emit({ type: 'gave-up', attempt });
        return null;
      }
      const delayMs = Math.min(next, remaining);
      emit({ type: 'waiting', attempt: attempt + 1, delayMs, nextPollAt: clock.now() + delayMs });
      await sleep(delayMs, clock, signal);
      attempt += 1;
      emit({ type: 'polling', attempt });
      let purchases = null;
      try {
        purchases = await this.listPurchases(filters ?? {}, { signal });
      } catch (e) {
        if (signal?.aborted || !isServiceUnavailable(e)) throw e;
        emit({ type: 'poll-failed', attempt, error: e });
      }
      if (purchases !== null) {
        const found = purchases.find((p) => matches(p));
        if (found !== undefined) {
          emit({ type: 'found', attempt, purchase: found });
          return found;
        }
        emit({ type: 'not-found', attempt, seen: purchases.length });
      }
      next = Math.min(next * 2, maxDelayMs);
    }
  }
}

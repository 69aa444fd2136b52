// Who the guest on screen is for the order path: the (merchant, user) of the account snapshot in
// hand, and which client replays an order (with credentials proven to be its guest's). It reads
// the snapshot's life cycle it is handed (LocalSnapshot); what the guest has promised away is the
// holds' (web/offline/holds/), handed to the order path beside it.
import { LoyaltyClient } from '../../http/loyalty_client.js';
import { isNoAnswer } from '../../http/service_failure.js';
import { withinTime } from '../../http/time_limit.js';
import { describeError } from './order_outcome.js';
import { isLegacy, isUnresolved, ownerOfSnapshot, sameGuestCredentials } from './order_record.js';

const DEFAULT_TIMEOUT_MS = 10_000;
const credentialsKey = (c) => JSON.stringify([c.baseUrl, c.merchantKey, c.accessToken]);
// No answer at all (network, timeout): the service is unreachable for the orders behind.

export class OrderGuest {
  #client;
  #snapshots;
  #credentialsFor;
  // credentials key -> owner text their account read named (proven once per credentials).
  #owners = new Map();

  /**
   * client: the on-screen client (a LoyaltyClient: saveBasket(body), credentials(),
   * withCredentials(), timeoutMs); snapshots: the guest's account in hand (a LocalSnapshot:
   * current(): the snapshot or null, ready(): loads one, following the client's current guest,
   * accountSnapshot(client): the account read with that client, as a snapshot);
   * credentialsFor(order): the caller's credentials for an order, or null (may be absent).
   */
  constructor({ client, snapshots, credentialsFor = null }) {
    this.#client = client;
    this.#snapshots = snapshots;
    this.#credentialsFor = credentialsFor ?? null;
  }

  /** The on-screen client. */
  get client() {
    return this.#client;
  }

  /** How long one call of the caller's functions may take: the client's timeoutMs. */
  get timeoutMs() {
    return this.#client.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /** { owner, merchantId, userId } of the guest on screen, without reading the account; or null. */
  known() {
    return ownerOfSnapshot(this.#snapshots.current());
  }

  /**
   * The same, after making sure the snapshot in hand is the client's current guest's (reading the
   * account when none is in hand, or when the token now belongs to another guest); null when it
   * cannot be read now.
   */
  async identify() {
    try {
      await this.#snapshots.ready();
    } catch {
      return null;
    }
    return this.known();
  }

  /** The on-screen client's credentials now, or null (a client without them, or a token that fails). */
  async credentials() {
    if (typeof this.#client.credentials !== 'function') return null;
    try {
      return await this.#client.credentials();
    } catch {
      return null;
    }
  }

  /**
   * Which client replays `order`: { client, key } (key: the service it reaches, so that one
   * service that does not answer holds back only its own orders), or { error } (with `key` and
   * `noAnswer` when that service gave no answer). The candidates, in turn: credentialsFor(order),
   * the on-screen client's credentials for the guest's own orders, the credentials stored with
   * the order; the first whose account read names the order's (merchant, user) sends it (an
   * order queued before its account was read: the merchant key and token it was placed with, at
   * any base URL). `clients` caches a client per credentials for one replay.
   */
  async replayClient(order, clients) {
    const candidates = [];
    if (this.#credentialsFor !== null) {
      let given;
      try {
        const late = () => new Error(`it gave nothing within ${this.timeoutMs} ms`);
        given = await withinTime(Promise.resolve().then(() => this.#credentialsFor(structuredClone(order))), this.timeoutMs, late);
      } catch (e) {
        return { error: `credentialsFor() failed: ${describeError(e)}` };
      }
      if (given != null) candidates.push({ credentials: given, source: 'credentialsFor(order)' });
    }
    const me = this.known();
    if (me !== null && order.owner === me.owner) {
      if (typeof this.#client.credentials !== 'function') return { client: this.#client, key: this.#client.baseUrl ?? 'client' };
      const mine = await this.credentials();
      if (mine !== null) candidates.push({ credentials: mine, source: "the on-screen client's credentials" });
    }
    if (order.replay) candidates.push({ credentials: order.replay, source: 'the credentials stored with the order' });
    if (candidates.length === 0) {
      return { error: 'no credentials to replay it: it waits for its guest (or a credentialsFor option that knows them)' };
    }
    const problems = [];
    for (const { credentials, source } of candidates) {
      const key = credentialsKey(credentials);
      if (!clients.has(key)) {
        clients.set(key, typeof this.#client.withCredentials === 'function' ? this.#client.withCredentials(credentials) : new LoyaltyClient(credentials));
      }
      const client = clients.get(key);
      const problem = await this.#prove(order, credentials, client);
      if (problem === null) return { client, key: credentials.baseUrl };
      if (problem.noAnswer) return { error: problem.text, key: credentials.baseUrl, noAnswer: true };
      problems.push(`${source}: ${problem.text}`);
    }
    return { error: `not sent: no credentials proven to be this order's guest's (${problems.join('; ')})` };
  }

  // null when `credentials` are proven to be the order's guest's, else { text, noAnswer }.
  async #prove(order, credentials, client) {
    // Orders of the previous layout name no (merchant, user): credentialsFor's word is all there is.
    if (isLegacy(order)) return null;
    // Queued before its account was read: only the merchant key and token it was placed with.
    if (isUnresolved(order)) {
      return sameGuestCredentials(order.replay, credentials) ? null : { text: 'not the merchant key and token it was placed with' };
    }
    const key = credentialsKey(credentials);
    let owner = this.#owners.get(key);
    if (owner === undefined) {
      try {
        owner = ownerOfSnapshot(await this.#snapshots.accountSnapshot(client))?.owner ?? null;
      } catch (e) {
        const text = `their account could not be read to prove whose they are (${describeError(e)})`;
        return { text, noAnswer: isNoAnswer(e) };
      }
      if (owner === null) return { text: 'their account read names no (merchant, user)' };
      this.#owners.set(key, owner);
    }
    return owner === order.owner ? null : { text: `they are the credentials of ${owner}, not of this order's guest ${order.owner}` };
  }
}

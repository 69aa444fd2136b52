// The one collaborator between HybridQualifier and the order path: who the guest on screen is
// (the (merchant, user) of the account snapshot in hand), which client replays an order, and
// what the local engine would discount for the offline policy. The order path asks it; it never
// reaches into the hybrid.
import { LoyaltyClient } from '../http/loyalty_client.js';
import { describeError } from './order_outcome.js';
import { ownerOfSnapshot } from './order_record.js';

export class OrderGuest {
  #client;
  #snapshots;
  #credentialsFor;

  /**
   * client: the on-screen client (a LoyaltyClient: saveBasket(body), credentials(),
   * withCredentials()); snapshots: the guest's account in hand, { current(): the snapshot or null,
   * ready(): loads one, localDiscount(request, offer, order): the local engine's discount text for
   * the offer of `order` or null (or a promise of it), withheld(request, offer, basketId): why a new order
   * may not promise the offer ({ kind, id, code, message }) or null (optional) };
   * credentialsFor(order): the caller's credentials for an
   * order, or null (may be absent).
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

  /** { owner, merchantId, userId } of the guest on screen, without reading the account; or null. */
  known() {
    return ownerOfSnapshot(this.#snapshots.current());
  }

  /** The same, reading the account when no snapshot is in hand; null when it cannot be read now. */
  async identify() {
    if (this.#snapshots.current() === null) {
      try {
        await this.#snapshots.ready();
      } catch {
        return null;
      }
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

  /** The local engine's discount text for `order`'s `offer` on `request`, or null (or a promise of it). */
  localDiscount(request, offer, order) {
    return this.#snapshots.localDiscount(request, offer, order);
  }

  /** Why new order `basketId` may not promise `offer` (it is held: pending_holds.js), or null. */
  async withheld(request, offer, basketId) {
    if (offer === null || typeof this.#snapshots.withheld !== 'function') return null;
    try {
      return (await this.#snapshots.withheld(request, offer, basketId)) ?? null;
    } catch {
      return null;
    }
  }

  /**
   * Which client replays `order`: { client, key } (key: the service it reaches, so that one
   * unreachable service holds back only its own orders) or { error }. credentialsFor(order) when
   * it gives some; the on-screen client for the guest's own orders; else the credentials stored
   * with the order. `clients` caches a client per credentials for one replay.
   */
  async replayClient(order, clients) {
    let credentials = null;
    if (this.#credentialsFor !== null) {
      try {
        credentials = await this.#credentialsFor(structuredClone(order));
      } catch (e) {
        return { error: `credentialsFor() failed: ${describeError(e)}` };
      }
    }
    if (credentials == null) {
      const me = this.known();
      if (me !== null && order.owner === me.owner) {
        return { client: this.#client, key: this.#client.baseUrl ?? 'client' };
      }
      credentials = order.replay ?? null;
    }
    if (credentials == null) {
      return { error: 'no credentials to replay it: it waits for its guest (or a credentialsFor option that knows them)' };
    }
    const key = JSON.stringify([credentials.baseUrl, credentials.merchantKey, credentials.accessToken]);
    if (!clients.has(key)) {
      clients.set(key, typeof this.#client.withCredentials === 'function' ? this.#client.withCredentials(credentials) : new LoyaltyClient(credentials));
    }
    return { client: clients.get(key), key: credentials.baseUrl };
  }
}

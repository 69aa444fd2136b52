// The kiosk's link to the loyalty service: the package's LoyaltyClient (the API calls
// with the headers the service requires), asked only when the kiosk server's health endpoint says
// the service is up and the browser is online. Chromium logs every failed or non-2xx fetch as a
// console error; this way a stopped service or a cut network costs no failing request: the call
// fails at once with NETWORK_ERROR, which HybridQualifier treats as "unreachable".
import { LoyaltyClient, NETWORK_ERROR, QualifyError } from '../../../web/index.js';

/**
 * Whether the service is up, from the kiosk server's health endpoint (always 200). null: no
 * health endpoint to ask; false: down, or the network is.
 */
export async function serviceIsUp(healthUrl) {
  if (globalThis.navigator?.onLine === false) return false;
  if (!healthUrl) return null;
  try {
    const response = await fetch(healthUrl, { cache: 'no-store', signal: AbortSignal.timeout(5_000) });
    if (!response.ok) return null;
    const body = await response.json();
    return body?.service === 'up';
  } catch {
    return false;
  }
}

/**
 * A client for one guest; apiBase is absolute or relative to the page ('' = the page's origin),
 * config.json's api_base. It has LoyaltyClient's methods (qualify, account, accountIfChanged,
 * saveBasket, identity, credentials, accessToken, withCredentials). A client for another guest's
 * stored credentials (a queued order's replay) goes to this same apiBase, whatever base URL the
 * order was stored with: a guest's token and merchant key never leave for an origin the page's
 * configuration does not name.
 */
export function createServiceClient({ apiBase = '', healthUrl = null, accessToken, merchantKey }) {
  const baseUrl = new URL(apiBase || '/', window.location.href).href;
  const client = new LoyaltyClient({ baseUrl, accessToken, merchantKey, timeoutMs: 15_000 });
  const whenUp = (call) => async (...args) => {
    if ((await serviceIsUp(healthUrl)) === false) {
      throw new QualifyError(NETWORK_ERROR, 'the loyalty service is not reachable (offline or stopped)');
    }
    return call(...args);
  };
  let accountReads = 0;
  const counted = (read) => async (...args) => {
    const answer = await read(...args);
    accountReads += 1;
    return answer;
  };
  return {
    identity: client.identity,
    baseUrl: client.baseUrl,
    /** How many account reads the service has answered: whether a snapshot in hand was just read. */
    get accountReads() {
      return accountReads;
    },
    qualify: whenUp((basket) => client.qualify(basket)),
    account: whenUp(counted(() => client.account())),
    accountIfChanged: whenUp(counted((etag) => client.accountIfChanged(etag))),
    saveBasket: whenUp((body) => client.saveBasket(body)),
    // What a queued order keeps for its replay, and a client for another guest's stored credentials.
    credentials: () => client.credentials(),
    accessToken: () => client.accessToken(),
    withCredentials: (credentials) =>
      createServiceClient({ apiBase, healthUrl, accessToken: credentials.accessToken, merchantKey: credentials.merchantKey }),
  };
}

// The kiosk's link to the loyalty service: web/loyalty_client.js's LoyaltyClient (the three API
// calls with the headers the service requires), plus the kiosk server's health probe.
import { LoyaltyClient } from '../loyalty_client.js';

/** A client for one guest; apiBase is absolute or relative to the page ('' = the page's origin). */
export function createServiceClient({ apiBase = '', accessToken, merchantKey }) {
  const baseUrl = new URL(apiBase || '/', window.location.href).href;
  return new LoyaltyClient({ baseUrl, accessToken, merchantKey, timeoutMs: 15_000 });
}

/**
 * Whether the service is up, from the kiosk server's health endpoint (always 200, so a stopped
 * service does not put a failed request in the console). null: no health endpoint to ask.
 */
export async function serviceIsUp(healthUrl) {
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

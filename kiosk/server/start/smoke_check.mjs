// `npm start -- --smoke`: what the page needs, fetched once through the running kiosk server (the
// loyalty service's /api and the store hub's /hub included).

/** Fetches what the page needs through the kiosk server, as a browser would; throws on a failure. */
export async function smokeCheck(origin) {
  const get = async (route, headers = {}) => {
    const response = await fetch(`${origin}${route}`, { headers, signal: AbortSignal.timeout(15_000) });
    if (response.status !== 200) throw new Error(`GET ${route}: HTTP ${response.status}`);
    return response;
  };
  for (const route of ['/kiosk/page/', '/kiosk/page/kiosk.js', '/kiosk/page/kiosk.css', '/kiosk/page/menu.json', '/web/engine/qualifier.js',
    '/web/engine/qualify_error.js',
    '/web/http/loyalty_client.js',
    '/web/messages/messages.js', '/node_modules/messageformat/lib/index.js',
    '/web/dist/loyalty_qualifier.mjs', '/web/dist/loyalty_qualifier.wasm']) {
    await get(route);
  }
  const config = await (await get('/kiosk/page/config.json')).json();
  const guest = config.guests[0];
  const snapshot = await (await get('/api/account', {
    Authorization: `Bearer ${guest.access_token}`,
    'Merchant-Key': config.merchants[guest.merchant_id].merchant_key,
    Accept: 'application/vnd.service-v1+json',
  })).json();
  if (snapshot?.user?.id !== guest.user_id) throw new Error(`GET /api/account answered for ${snapshot?.user?.id}`);
  // The store hub through the kiosk server's /hub proxy, which adds the store key: the page sends none.
  const hubHealth = await (await get('/hub/health')).json();
  const claims = await (await get(`/hub/claims?${new URLSearchParams({ merchant_id: guest.merchant_id, user_id: guest.user_id })}`)).json();
  if (!Array.isArray(claims?.claims)) throw new Error(`GET /hub/claims answered ${JSON.stringify(claims).slice(0, 200)}`);
  const { createQualifier } = await import('loyalty-qualifier');
  const qualifier = await createQualifier(snapshot);
  const offers = qualifier.qualify({ subtotal: '100.00', items: [{ id: 'latte', price: '4.75' }] });
  qualifier.dispose();
  const counts = `${offers.rewards.length} rewards, ${offers.points_products.length} points products`;
  return `${guest.user_id}: ${counts} on a $100 basket; store hub ${JSON.stringify(hubHealth)}, ${claims.claims.length} claims`;
}

// Which writes the kiosk server forwards to /api/ and /hub/. The /hub/ route adds the store key, so
// any request that reaches it acts with the store's authority; a page of another site (another
// port of localhost will do) can make the browser send one with `mode: 'no-cors'` and a text/plain
// body, without asking first. So, as OWASP's CSRF guidance for such APIs says (verify the origin
// with standard headers), a write (any method but GET, HEAD and OPTIONS) is forwarded only when:
// - its Origin, if it has one, is the page's own (http:// and the Host the request names, which
//   host_allowlist.mjs has checked) or one given with --allow-origin; else 403;
// - without an Origin, its Sec-Fetch-Site, if any, says the browser sent it from the page's own
//   origin (`same-origin`) or on the user's own (`none`); else 403. A client that is not a browser
//   sends neither header and is forwarded, as before (it holds no one's cookies or keys but its own);
// - its body, if any, is declared `application/json` (once; a charset, if named, UTF-8), the store
//   hub's own rule (front/http/json_media_type.hpp); else 415.
// Reads (GET, HEAD, OPTIONS) are forwarded as they come: another site cannot read their answers.

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * An origin (`scheme://host[:port]`, nothing after) in canonical form (lower case, the default
 * port dropped), or null when `text` is not one (`null`, a path, a user name, `*`).
 */
export function canonicalOrigin(text) {
  if (typeof text !== 'string') return null;
  let url;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username !== '' || url.password !== '') return null;
  // Nothing but the origin itself (a trailing slash aside): no path, query or fragment.
  if (url.pathname !== '/' || /[?#]/.test(text)) return null;
  return url.origin;
}

function isJson(value) {
  const [type, ...parameters] = value.split(';');
  if (type.trim().toLowerCase() !== 'application/json') return false;
  return parameters.every((parameter) => {
    const equals = parameter.indexOf('=');
    if (equals < 0 || parameter.slice(0, equals).trim().toLowerCase() !== 'charset') return true;
    return parameter.slice(equals + 1).trim().replace(/^"(.*)"$/, '$1').toLowerCase() === 'utf-8';
  });
}

/** The 415 of a body not declared JSON (the store hub's words), or null. */
function mediaTypeRefusal(request) {
  const hasBody = Number(request.headers['content-length'] ?? 0) > 0 || request.headers['transfer-encoding'] !== undefined;
  if (!hasBody) return null;
  const declared = request.headersDistinct?.['content-type'] ?? (request.headers['content-type'] === undefined ? [] : [request.headers['content-type']]);
  if (declared.length === 0) return { status: 415, message: 'a request body must be sent with Content-Type: application/json' };
  if (declared.length > 1) return { status: 415, message: `the Content-Type header must be sent once (got ${declared.length})` };
  if (isJson(declared[0])) return null;
  return { status: 415, message: `the request body must be application/json (UTF-8), not ${declared[0].slice(0, 100)}` };
}

/**
 * The guard of the proxied routes: refusal(request) is null when the request may be forwarded,
 * else { status, message }. `allowedOrigins`: origins (--allow-origin) whose pages may write
 * besides the page's own.
 */
export function createWriteGuard(allowedOrigins = []) {
  const allowed = new Set(allowedOrigins.map((origin) => canonicalOrigin(origin)).filter((origin) => origin !== null));
  return {
    allowedOrigins: [...allowed],
    refusal(request) {
      if (SAFE_METHODS.has(request.method)) return null;
      const own = canonicalOrigin(`http://${request.headers.host ?? ''}`);
      const origin = request.headers.origin;
      if (origin !== undefined) {
        const canonical = canonicalOrigin(origin);
        if (canonical === null || (canonical !== own && !allowed.has(canonical))) {
          return {
            status: 403,
            message: `Origin ${JSON.stringify(String(origin).slice(0, 200))}: the kiosk server forwards writes to /api/ and /hub/ only from its own page (${own}) and the origins given with --allow-origin`,
          };
        }
      } else {
        const site = request.headers['sec-fetch-site'];
        if (site !== undefined && site !== 'same-origin' && site !== 'none') {
          return {
            status: 403,
            message: `Sec-Fetch-Site ${JSON.stringify(String(site).slice(0, 50))} without an Origin: the kiosk server forwards writes to /api/ and /hub/ only from its own page`,
          };
        }
      }
      return mediaTypeRefusal(request);
    },
  };
}

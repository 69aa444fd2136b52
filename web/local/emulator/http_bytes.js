// A fetch Request as the HTTP/1.1 bytes the native service would receive from fetch(), and the
// response bytes the service's C++ writes as a fetch Response. The emulator's module parses and
// answers the bytes with the service's own framing checks and routes (the repository's
// emulator/memory_server: httplib's routing over a memory stream).

const encoder = new TextEncoder();
const latin1 = new TextDecoder('latin1');

// Framing and connection headers belong to the transport: fetch() sets them itself (and refuses
// most of them from callers), so the bytes carry the ones fetch would send.
const TRANSPORT_HEADERS = new Set(['connection', 'keep-alive', 'content-length', 'transfer-encoding', 'host', 'expect', 'upgrade', 'te']);
// Response headers of the connection, not of the answer (the native service's keep-alive).
const CONNECTION_HEADERS = new Set(['connection', 'keep-alive']);
// Statuses whose response has no body (Response refuses one).
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

// The methods fetch() normalizes to upper case (Fetch standard, "normalize a method").
const NORMALIZED_METHODS = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT']);

function isBytes(body) {
  return ArrayBuffer.isView(body) || Object.prototype.toString.call(body) === '[object ArrayBuffer]';
}

/**
 * What fetch(input, init) would send, read without building a Request when the call is a plain
 * one (a URL, one of the usual methods, no signal, a string or bytes as body): { method, url,
 * headers, body (bytes) }, else null (build a Request). The Content-Type a string body gets by
 * default, and a TypeError for a body with GET or HEAD, are fetch's own.
 */
export function plainRequest(input, init) {
  if (!(typeof input === 'string' || input instanceof URL)) return null;
  // A relative URL is Request's to resolve (against a page's base) or refuse (in Node), as fetch does.
  let url;
  try {
    url = new URL(input);
  } catch {
    return null;
  }
  const { method: given = 'GET', headers: fields, body, signal, ...rest } = init ?? {};
  if (signal != null || Object.keys(rest).length > 0 || typeof given !== 'string') return null;
  const method = given.toUpperCase();
  if (!NORMALIZED_METHODS.has(method)) return null;
  if (body != null && typeof body !== 'string' && !isBytes(body)) return null;
  if (body != null && (method === 'GET' || method === 'HEAD')) throw new TypeError('Request with GET/HEAD method cannot have body.');
  const headers = new Headers(fields);
  if (typeof body === 'string' && !headers.has('content-type')) headers.set('content-type', 'text/plain;charset=UTF-8');
  const bytes = body == null ? null : typeof body === 'string' ? encoder.encode(body) : new Uint8Array(ArrayBuffer.isView(body) ? body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength) : body.slice(0));
  return { method, url, headers, body: bytes };
}

/**
 * The bytes of a request ({ method, url (a URL), headers (Headers), body (bytes or null) }) as
 * fetch() sends them: the URL's path and query, Host from the URL, the headers, `Accept: *\/*`
 * when they name none (as fetch adds), and the body framed by Content-Length.
 */
export function requestBytes({ method, url, headers, body }) {
  const payload = body ?? new Uint8Array(0);
  let head = `${method} ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\n`;
  let accept = false;
  for (const [name, value] of headers) {
    if (TRANSPORT_HEADERS.has(name)) continue;
    if (name === 'accept') accept = true;
    head += `${name}: ${value}\r\n`;
  }
  if (!accept) head += 'accept: */*\r\n';
  if (payload.length > 0 || !['GET', 'HEAD'].includes(method)) head += `content-length: ${payload.length}\r\n`;
  head += '\r\n';
  const headBytes = encoder.encode(head);
  const bytes = new Uint8Array(headBytes.length + payload.length);
  bytes.set(headBytes, 0);
  bytes.set(payload, headBytes.length);
  return bytes;
}

/** What a fetch Request sends ({ method, url, headers, body }), its body read. */
export async function requestParts(request) {
  const body = request.body === null ? null : new Uint8Array(await request.arrayBuffer());
  return { method: request.method, url: new URL(request.url), headers: request.headers, body };
}

/**
 * The parts of the HTTP/1.1 response `bytes`: { status, statusText, headers (name, value pairs
 * without the connection's own), body (the bytes after the head, a view of `bytes`) }.
 */
export function parseResponseBytes(bytes) {
  let end = -1;
  for (let i = 0; i + 3 < bytes.length; i++) {
    if (bytes[i] === 13 && bytes[i + 1] === 10 && bytes[i + 2] === 13 && bytes[i + 3] === 10) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new Error('the emulator wrote a response without a complete head');
  const [statusLine, ...fields] = latin1.decode(bytes.subarray(0, end)).split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3}) ?(.*)$/.exec(statusLine);
  if (status === null) throw new Error(`the emulator wrote an invalid status line: ${statusLine}`);
  const headers = [];
  for (const field of fields) {
    const colon = field.indexOf(':');
    const name = field.slice(0, colon).trim();
    if (!CONNECTION_HEADERS.has(name.toLowerCase())) headers.push([name, field.slice(colon + 1).trim()]);
  }
  return { status: Number(status[1]), statusText: status[2], headers, body: bytes.subarray(end + 4) };
}

/** The fetch Response of the HTTP/1.1 response `bytes` (a copy of its own) to a request of `method`. */
export function responseOf(bytes, method) {
  const { status, statusText, headers, body } = parseResponseBytes(bytes);
  const empty = NULL_BODY_STATUSES.has(status) || method === 'HEAD';
  return new Response(empty ? null : body.slice(), { status, statusText, headers });
}

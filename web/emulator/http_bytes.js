// A fetch Request as the HTTP/1.1 bytes the native service would receive from fetch(), and the
// response bytes the service's C++ writes as a fetch Response. The emulator's module parses and
// answers the bytes with the service's own framing checks and routes (emulator/memory_server.hpp).

const encoder = new TextEncoder();
const latin1 = new TextDecoder('latin1');

// Framing and connection headers belong to the transport: fetch() sets them itself (and refuses
// most of them from callers), so the bytes carry the ones fetch would send.
const TRANSPORT_HEADERS = new Set(['connection', 'keep-alive', 'content-length', 'transfer-encoding', 'host', 'expect', 'upgrade', 'te']);
// Response headers of the connection, not of the answer (the native service's keep-alive).
const CONNECTION_HEADERS = new Set(['connection', 'keep-alive']);
// Statuses whose response has no body (Response refuses one).
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * The bytes of `request` (a fetch Request) as fetch() sends them: the URL's path and query, Host
 * from the URL, the request's headers, `Accept: *\/*` when it names none (as fetch adds), and the
 * body framed by Content-Length.
 */
export async function requestBytes(request) {
  const url = new URL(request.url);
  const body = request.body === null ? new Uint8Array(0) : new Uint8Array(await request.arrayBuffer());
  let head = `${request.method} ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\n`;
  let accept = false;
  for (const [name, value] of request.headers) {
    if (TRANSPORT_HEADERS.has(name)) continue;
    if (name === 'accept') accept = true;
    head += `${name}: ${value}\r\n`;
  }
  if (!accept) head += 'accept: */*\r\n';
  if (body.length > 0 || !['GET', 'HEAD'].includes(request.method)) head += `content-length: ${body.length}\r\n`;
  head += '\r\n';
  const headBytes = encoder.encode(head);
  const bytes = new Uint8Array(headBytes.length + body.length);
  bytes.set(headBytes, 0);
  bytes.set(body, headBytes.length);
  return bytes;
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

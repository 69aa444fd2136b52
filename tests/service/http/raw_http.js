// HTTP/1.1 over raw `net` sockets, for the tests where framing matters: send exact bytes, read
// the responses as they come (Content-Length or chunked), see whether the server closed.
import net from 'node:net';

/** A response parsed off the front of `buffer`, or null while incomplete. */
export function parseResponse(buffer) {
  const headEnd = buffer.indexOf('\r\n\r\n');
  if (headEnd < 0) return null;
  const head = buffer.subarray(0, headEnd).toString('latin1');
  const [statusLine, ...fields] = head.split('\r\n');
  const match = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
  if (!match) throw new Error(`not a status line: ${JSON.stringify(statusLine)}`);
  const headers = {};
  for (const field of fields) {
    const colon = field.indexOf(':');
    headers[field.slice(0, colon).trim().toLowerCase()] = field.slice(colon + 1).trim();
  }
  const status = Number(match[1]);
  let rest = buffer.subarray(headEnd + 4);
  if (status === 100 || status === 204 || status === 304) return { status, headers, body: '', length: headEnd + 4 };
  if (headers['transfer-encoding'] === 'chunked') {
    const parts = [];
    let offset = 0;
    for (;;) {
      const lineEnd = rest.indexOf('\r\n', offset);
      if (lineEnd < 0) return null;
      const size = parseInt(rest.subarray(offset, lineEnd).toString('latin1'), 16);
      if (rest.length < lineEnd + 2 + size + 2) return null;
      if (size === 0) {
        return { status, headers, body: Buffer.concat(parts).toString('utf8'), length: headEnd + 4 + lineEnd + 4 };
      }
      parts.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
      offset = lineEnd + 2 + size + 2;
    }
  }
  const length = Number(headers['content-length'] ?? 0);
  if (rest.length < length) return null;
  rest = rest.subarray(0, length);
  return { status, headers, body: rest.toString('utf8'), length: headEnd + 4 + length };
}

/**
 * Connects to `url`'s host and port, writes `chunks` (strings or Buffers, in order), half-closes
 * when `halfClose`, and resolves once `responses` final responses (100 Continue aside) arrived or
 * the server closed: { responses, closed, error }. Bounded by `timeout` ms (then it resolves
 * with what it has, `timedOut` set). `statusOnly`: resolve at the first final status line.
 * `localAddress`: the client's own address (e.g. 127.0.0.2, another peer on loopback).
 */
export function exchange(url, chunks, { responses: wanted = 1, halfClose = false, timeout = 20_000, statusOnly = false, localAddress } = {}) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port), localAddress });
    let buffer = Buffer.alloc(0);
    const responses = [];
    let settled = false;
    const finish = (extra) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ responses, ...extra });
    };
    const timer = setTimeout(() => finish({ closed: false, timedOut: true }), timeout);
    socket.on('connect', () => {
      for (const chunk of chunks) socket.write(chunk);
      if (halfClose) socket.end();
    });
    socket.on('data', (data) => {
      buffer = Buffer.concat([buffer, data]);
      if (statusOnly) {
        // Only the first final status line matters (e.g. after HEAD, whose answer has no body).
        const text = buffer.toString('latin1');
        const match = /^HTTP\/1\.[01] (?!100)(\d{3})[^\r\n]*\r\n/m.exec(text);
        if (match) {
          responses.push({ status: Number(match[1]), headers: {}, body: '' });
          finish({ closed: false });
        }
        return;
      }
      try {
        while (responses.length < wanted) {
          const parsed = parseResponse(buffer);
          if (!parsed) break;
          buffer = buffer.subarray(parsed.length);
          if (parsed.status !== 100) responses.push(parsed);
        }
      } catch (error) {
        finish({ closed: false, error });
        return;
      }
      if (responses.length >= wanted) finish({ closed: false });
    });
    socket.on('end', () => finish({ closed: true }));
    socket.on('close', () => finish({ closed: true }));
    socket.on('error', (error) => finish({ closed: true, error }));
  });
}

/** A request's bytes: request line, header lines (an array of [name, value]), body. */
export function requestBytes(method, target, fields, body = '') {
  const lines = [`${method} ${target} HTTP/1.1`, ...fields.map(([name, value]) => `${name}: ${value}`)];
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}

/**
 * Opens a socket that sends `prefix` and then stalls; resolves once it is connected.
 * `localAddress`: the client's own address.
 */
export function stalledClient(url, prefix, { localAddress } = {}) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port), localAddress }, () => {
      socket.write(prefix);
      resolve(socket);
    });
    socket.on('error', () => {});
    socket.once('error', reject);
  });
}

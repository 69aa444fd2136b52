// A small TCP proxy on 127.0.0.1 in front of the service that can lose answers: armed with
// dropAnswers(n, pattern), it forwards the next n requests whose bytes match `pattern` to the
// service, lets the service answer (and commit), then closes the client's connection without
// passing the answer on: the client cannot know what happened. Everything else is forwarded as is.
import net from 'node:net';

/** target: the service's base URL, or a function giving it (a restarted service moves). */
export async function startLossyProxy(target) {
  const sockets = new Set();
  const state = { drops: 0, pattern: null, dropped: 0, forwarded: 0 };
  const server = net.createServer((client) => {
    const { hostname, port } = new URL(typeof target === 'function' ? target() : target);
    const upstream = net.connect({ host: hostname, port: Number(port) });
    sockets.add(client);
    sockets.add(upstream);
    let doomed = false;
    client.on('data', (chunk) => {
      if (!doomed && state.drops > 0 && state.pattern.test(chunk.toString('latin1'))) {
        doomed = true;
        state.drops -= 1;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (doomed) {
        // The service answered (so it decided and committed): the answer is lost on the way back.
        state.dropped += 1;
        client.destroy();
        upstream.destroy();
        return;
      }
      state.forwarded += 1;
      client.write(chunk);
    });
    const close = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', close);
    upstream.on('error', close);
    client.on('close', close);
    upstream.on('close', close);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    state,
    /** The next `count` requests matching `pattern` reach the service; their answers are lost. */
    dropAnswers(count, pattern) {
      state.drops = count;
      state.pattern = pattern;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

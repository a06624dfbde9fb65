import net from 'node:net';

/**
 * A TCP relay on loopback between the app and a real server (PostgreSQL, Redis), so a test can cut the line
 * like a network failure or a restarting server would, and restore it, without touching the shared server.
 */
export async function startTcpProxy(target: { host: string; port: number }) {
  let down = false;
  const pairs = new Set<{ client: net.Socket; upstream: net.Socket }>();
  const server = net.createServer((client) => {
    if (down) {
      client.destroy();
      return;
    }
    const upstream = net.connect(target.port, target.host);
    const pair = { client, upstream };
    pairs.add(pair);
    const end = () => {
      client.destroy();
      upstream.destroy();
      pairs.delete(pair);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;

  return {
    port,
    /** Local ports of the relay's connections to the server, as the server sees its clients. */
    upstreamPorts: () => [...pairs].map((p) => p.upstream.localPort).filter((p): p is number => p !== undefined),
    /** Drops every open connection and refuses new ones until `restore`. */
    cut() {
      down = true;
      for (const { client, upstream } of pairs) {
        client.destroy();
        upstream.destroy();
      }
      pairs.clear();
    },
    restore() {
      down = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const { client, upstream } of pairs) {
          client.destroy();
          upstream.destroy();
        }
        server.close(() => resolve());
      }),
  };
}

export type TcpProxy = Awaited<ReturnType<typeof startTcpProxy>>;

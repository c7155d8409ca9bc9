import { type AddressInfo, type Server, type Socket, connect, createServer } from 'node:net';

/**
 * A TCP relay to a server (Redis, PostgreSQL) that a test can break as a network would: `refuse`
 * drops every connection and refuses new ones (a server down); `blackHole` keeps them all open
 * and silent, old and new (a firewall dropping packets); `restore` lets traffic through again.
 */
export class TcpRelay {
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private mode: 'open' | 'refuse' | 'blackHole' = 'open';

  private constructor(target: URL, defaultPort: number) {
    this.server = createServer((client) => {
      if (this.mode === 'refuse') return client.destroy();
      this.track(client);
      if (this.mode === 'blackHole') return;
      const upstream = connect(Number(target.port || defaultPort), target.hostname);
      this.track(upstream);
      client.on('data', (chunk) => this.mode === 'open' && upstream.write(chunk));
      upstream.on('data', (chunk) => this.mode === 'open' && client.write(chunk));
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
  }

  /** A relay to `url`'s host and port; `url` is returned with the relay's port in their place. */
  static async start(url: string, defaultPort: number): Promise<{ relay: TcpRelay; url: string }> {
    const target = new URL(url);
    const relay = new TcpRelay(target, defaultPort);
    await new Promise<void>((resolve) => relay.server.listen(0, '127.0.0.1', resolve));
    const relayed = new URL(url);
    relayed.hostname = '127.0.0.1';
    relayed.port = String((relay.server.address() as AddressInfo).port);
    return { relay, url: relayed.toString() };
  }

  refuse(): void {
    this.mode = 'refuse';
    for (const socket of this.sockets) socket.destroy();
  }

  blackHole(): void {
    this.mode = 'blackHole';
  }

  restore(): void {
    this.mode = 'open';
  }

  async close(): Promise<void> {
    this.refuse();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => undefined);
  }
}

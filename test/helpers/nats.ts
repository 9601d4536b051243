// Real `nats-server` processes for the cluster tests and bench: `n` servers on loopback, clustered
// (routes between all of them; one alone is a plain server) with JetStream on, each storing under its own folder of `dir`. A
// server can be stopped (SIGTERM, or SIGKILL) and started again on the same ports and folder.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export interface NatsServer {
  index: number;
  url: string;
  running(): boolean;
  stop(signal?: NodeJS.Signals): Promise<void>;
  start(): Promise<void>;
}

export interface NatsCluster {
  servers: NatsServer[];
  /** Every client URL, comma-separated (what --cluster and SVC_NATS_URL take). */
  urls: string;
  close(): Promise<void>;
}

/** Whether `nats-server` is on the PATH. */
export function hasNatsServer(): boolean {
  return spawnSync('nats-server', ['--version']).status === 0;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const c = net.connect(port, '127.0.0.1', () => {
        c.destroy();
        resolve(true);
      });
      c.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`nats-server did not listen on ${port} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Starts `n` clustered JetStream servers under `dir`; `close()` stops them all. */
export async function startNatsCluster(dir: string, n = 3): Promise<NatsCluster> {
  const ports = await Promise.all(Array.from({ length: n }, async () => ({ client: await freePort(), route: await freePort() })));
  const routes = ports.map((p) => `nats-route://127.0.0.1:${p.route}`).join(',');
  const servers: NatsServer[] = ports.map((p, i) => {
    const store = path.join(dir, `nats-${i}`);
    fs.mkdirSync(store, { recursive: true });
    const conf = path.join(dir, `nats-${i}.conf`);
    fs.writeFileSync(
      conf,
      [
        `server_name: n${i}`,
        `listen: 127.0.0.1:${p.client}`,
        'max_payload: 8MB',
        `jetstream { store_dir: "${store}" }`,
        n > 1 ? `cluster { name: svc-test, listen: 127.0.0.1:${p.route}, routes: [${routes}] }` : '',
        '',
      ].join('\n'),
    );
    let child: ChildProcess | undefined;
    let exited: Promise<void> = Promise.resolve();
    const server: NatsServer = {
      index: i,
      url: `nats://127.0.0.1:${p.client}`,
      running: () => child !== undefined && child.exitCode === null && child.signalCode === null,
      async start() {
        child = spawn('nats-server', ['-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
        let err = '';
        child.stderr!.setEncoding('utf8').on('data', (d: string) => (err = (err + d).slice(-4000)));
        const c = child;
        exited = new Promise((resolve) => c.once('exit', () => resolve()));
        await waitForPort(p.client, 10_000).catch((e) => {
          throw new Error(`${(e as Error).message}: ${err}`);
        });
      },
      async stop(signal: NodeJS.Signals = 'SIGTERM') {
        if (server.running()) child!.kill(signal);
        await exited;
      },
    };
    return server;
  });
  await Promise.all(servers.map((s) => s.start()));
  return {
    servers,
    urls: servers.map((s) => s.url).join(','),
    async close() {
      await Promise.all(servers.map((s) => s.stop()));
    },
  };
}

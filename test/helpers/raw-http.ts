// Sends exact bytes as an HTTP request (no URL normalisation, no header checks, any path) and reads
// the reply of a server that closes the connection or sends a Content-Length: for hostile-input
// tests that fetch would refuse or rewrite.
import net from 'node:net';

export interface RawReply {
  status: number;
  headers: Record<string, string>;
  body: any;
}

export function rawRequest(port: number, head: string, body: Buffer | string = ''): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let done = false;
    const finish = () => {
      if (done) return;
      const text = Buffer.concat(chunks).toString('latin1');
      const split = text.indexOf('\r\n\r\n');
      if (split < 0) return;
      const [statusLine, ...lines] = text.slice(0, split).split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      const raw = Buffer.from(text.slice(split + 4), 'latin1');
      const length = headers['content-length'] === undefined ? undefined : Number(headers['content-length']);
      if (length !== undefined && raw.length < length) return;
      done = true;
      socket.destroy();
      const bodyText = raw.subarray(0, length).toString('utf8');
      let parsed: unknown = bodyText;
      try {
        parsed = JSON.parse(bodyText);
      } catch {
        // not JSON
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: parsed });
    };
    socket.on('data', (d) => {
      chunks.push(d);
      finish();
    });
    socket.on('end', finish);
    socket.on('error', (err) => (done ? undefined : reject(err)));
    const end = head.endsWith('\r\n\r\n') ? '' : head.endsWith('\r\n') ? '\r\n' : '\r\n\r\n';
    socket.write(Buffer.concat([Buffer.from(head + end, 'latin1'), Buffer.from(body)]), (err) => err && !done && reject(err));
  });
}
